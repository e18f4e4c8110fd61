import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type Placeholders, preparedQuery } from '../../db/prepared.ts';
import { files, tourPublicCovers, tours } from '../../db/schema/index.ts';
import { coverSlot } from '../files/cover-slot.ts';
import type { FileOwner } from '../files/files.service.ts';

export const TOUR_COVER_OWNER = 'tour_cover';

/** The owner of a tour's cover images (owner id: the tour). */
export const tourCoverOwner = (tourId: number): FileOwner => ({ type: TOUR_COVER_OWNER, id: tourId });

export const { lockCoverFile, setCurrentCover, setCoverIfNone, currentCoverId } = coverSlot(
  tours,
  TOUR_COVER_OWNER,
);

/** The public tokens of the tour's covers, by file id. */
export async function publicTokensOf(db: Db, tourId: number): Promise<Map<number, string>> {
  const rows = await db
    .select({ fileId: tourPublicCovers.fileId, token: tourPublicCovers.token })
    .from(tourPublicCovers)
    .where(eq(tourPublicCovers.tourId, tourId));
  return new Map(rows.map((r) => [r.fileId, r.token]));
}

/** Makes a cover public under `token`, unless it already is; answers the token it is public under. */
export async function publishCover(
  db: Db,
  link: { fileId: number; tourId: number; token: string; now: Date },
): Promise<{ token: string; changed: boolean }> {
  const [inserted] = await db
    .insert(tourPublicCovers)
    .values({ fileId: link.fileId, tourId: link.tourId, token: link.token, createdAt: link.now })
    .onConflictDoNothing({ target: tourPublicCovers.fileId })
    .returning({ token: tourPublicCovers.token });
  if (inserted) return { token: inserted.token, changed: true };
  const [kept] = await db
    .select({ token: tourPublicCovers.token })
    .from(tourPublicCovers)
    .where(eq(tourPublicCovers.fileId, link.fileId));
  return { token: kept!.token, changed: false };
}

/** Makes a cover private: its public URL stops working at once. Whether it was public. */
export async function unpublishCover(db: Db, fileId: number): Promise<boolean> {
  const rows = await db
    .delete(tourPublicCovers)
    .where(eq(tourPublicCovers.fileId, fileId))
    .returning({ fileId: tourPublicCovers.fileId });
  return rows.length > 0;
}

/** The file a public token serves, or nothing: one indexed lookup per anonymous fetch. */
export const publicCoverByToken = preparedQuery(
  'tour_public_cover_by_token',
  (db, p: Placeholders<{ token: string }>) =>
    db
      .select({
        fileId: files.id,
        key: files.key,
        contentType: files.contentType,
        size: files.size,
        createdAt: files.createdAt,
      })
      .from(tourPublicCovers)
      .innerJoin(files, eq(files.id, tourPublicCovers.fileId))
      .where(eq(tourPublicCovers.token, p.token))
      .limit(1),
);
