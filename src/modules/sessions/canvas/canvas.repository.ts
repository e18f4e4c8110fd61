import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { sessionCanvases as canvases } from '../../../db/schema/index.ts';

const canvasColumns = {
  version: canvases.version,
  content: canvases.content,
  updatedAt: canvases.updatedAt,
  updatedBy: canvases.updatedBy,
};

export type CanvasRow = {
  version: number;
  content: Record<string, unknown>;
  updatedAt: Date;
  updatedBy: string | null;
};

export async function findCanvas(db: Db, sessionId: number): Promise<CanvasRow | undefined> {
  const [row] = await db.select(canvasColumns).from(canvases).where(eq(canvases.sessionId, sessionId));
  return row;
}

/**
 * Writes the canvas when it is still at `version` (0: never written), as one conditional statement; undefined
 * when another write came first.
 */
export async function writeCanvas(
  db: Db,
  sessionId: number,
  version: number,
  change: { content: Record<string, unknown>; updatedBy: string; now: Date },
): Promise<CanvasRow | undefined> {
  const values = { content: change.content, updatedBy: change.updatedBy, updatedAt: change.now };
  if (version === 0) {
    const [row] = await db
      .insert(canvases)
      .values({ sessionId, version: 1, ...values })
      .onConflictDoNothing()
      .returning(canvasColumns);
    return row;
  }
  const [row] = await db
    .update(canvases)
    .set({ ...values, version: version + 1 })
    .where(and(eq(canvases.sessionId, sessionId), eq(canvases.version, version)))
    .returning(canvasColumns);
  return row;
}
