import type { Static, TSchema } from '@sinclair/typebox';
import type { Db } from '../../../db/client.ts';

/** Who `together` compares, and the teams both are members of (what every part builds on). */
export type TogetherContext = { db: Db; callerId: string; personId: string; teamIds: number[] };

/** One area's share of the `together` answer (under its key in TOGETHER_PARTS): its schema and its read. */
export type TogetherPart<S extends TSchema> = {
  schema: S;
  read(ctx: TogetherContext): Promise<Static<S>>;
};
