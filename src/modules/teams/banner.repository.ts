import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { teams } from '../../db/schema/index.ts';

/** The team's banner key, locking the team row so banner changes of one team run one at a time. */
export async function lockBanner(db: Db, teamId: number) {
  const [row] = await db
    .select({ bannerKey: teams.bannerKey })
    .from(teams)
    .where(eq(teams.id, teamId))
    .for('update');
  return row;
}

export async function findBannerKey(db: Db, teamId: number): Promise<string | null | undefined> {
  const [row] = await db.select({ bannerKey: teams.bannerKey }).from(teams).where(eq(teams.id, teamId));
  return row?.bannerKey;
}

export async function setBannerKey(db: Db, teamId: number, key: string | null, now: Date): Promise<void> {
  await db.update(teams).set({ bannerKey: key, updatedAt: now }).where(eq(teams.id, teamId));
}
