import { Type } from '@sinclair/typebox';
import { Uuid } from '../../shared/schemas.ts';

/** `{threadId}` of every thread route. */
export const ThreadParams = Type.Object({ threadId: Uuid });
