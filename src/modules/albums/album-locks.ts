import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { albums, type StatusDefinition, teams } from '../../db/schema/index.ts';
import { lockTeam } from '../teams/teams.repository.ts';
import type { AlbumRow } from './album-access.ts';

/*
 * Lock order of every album write: the team row first, then the album row. Changing the team's status
 * configuration locks the team row and then moves albums, so a write holding an album row must never wait
 * for the team row afterwards.
 */

/**
 * Locks the team's album board until the transaction ends and answers its album statuses. Every change of an
 * album's status or board position takes it, so positions stay 0..n-1 per status under concurrent requests,
 * and an album never moves into a status that a concurrent configuration change removes.
 */
export async function lockBoard(db: Db, teamId: number): Promise<StatusDefinition[] | undefined> {
  return (await lockTeam(db, teamId))?.statusConfig.albums;
}

/**
 * Locks one album for a change of its fields, cover or track list (these run one at a time per album);
 * undefined when it was deleted meanwhile.
 */
export async function lockAlbum(db: Db, teamId: number, albumId: number): Promise<AlbumRow | undefined> {
  await db.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId)).for('key share');
  const [row] = await db.select().from(albums).where(eq(albums.id, albumId)).for('no key update');
  return row;
}
