import { and, asc, eq, gt } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { trackCollaborators, tracks, users } from '../../../db/schema/index.ts';
import type { Actor } from '../../../events/actor.ts';

const columns = {
  id: trackCollaborators.id,
  trackId: trackCollaborators.trackId,
  name: trackCollaborators.name,
  userId: trackCollaborators.userId,
  email: trackCollaborators.email,
  roles: trackCollaborators.roles,
  createdAt: trackCollaborators.createdAt,
};

export async function listCollaborators(db: Db, trackId: number, limit: number, after?: number) {
  return db
    .select(columns)
    .from(trackCollaborators)
    .where(and(eq(trackCollaborators.trackId, trackId), after ? gt(trackCollaborators.id, after) : undefined))
    .orderBy(asc(trackCollaborators.id))
    .limit(limit);
}

export async function findCollaborator(db: Db, trackId: number, collaboratorId: number) {
  const [row] = await db
    .select(columns)
    .from(trackCollaborators)
    .where(and(eq(trackCollaborators.id, collaboratorId), eq(trackCollaborators.trackId, trackId)));
  return row;
}

export async function insertCollaborator(
  db: Db,
  values: { trackId: number; name: string; userId: string | null; email: string | null; roles: string[] },
  actor: Actor,
) {
  const [row] = await db
    .insert(trackCollaborators)
    .values({ ...values, createdBy: actor.actorUserId, createdByKeyId: actor.actorKeyId })
    .returning(columns);
  return row!;
}

/**
 * Whether the user is a collaborator of the track already. Locks the track row first, so two adds of the
 * same user to one track run one after the other and the second sees the first.
 */
export async function lockAndFindUserCollaborator(db: Db, trackId: number, userId: string) {
  await db.select({ id: tracks.id }).from(tracks).where(eq(tracks.id, trackId)).for('no key update');
  const [row] = await db
    .select({ id: trackCollaborators.id })
    .from(trackCollaborators)
    .where(and(eq(trackCollaborators.trackId, trackId), eq(trackCollaborators.userId, userId)))
    .limit(1);
  return row;
}

export async function deleteCollaborator(db: Db, collaboratorId: number) {
  await db.delete(trackCollaborators).where(eq(trackCollaborators.id, collaboratorId));
}

export async function findUserName(db: Db, userId: string) {
  const [row] = await db
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}
