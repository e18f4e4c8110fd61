import type { Actor } from '../events/actor.ts';

/** The `createdBy` columns (db/schema/columns.ts) of a row the actor makes. */
export const createdByOf = (actor: Actor) => ({
  createdBy: actor.actorUserId,
  createdByKeyId: actor.actorKeyId,
});

/** Who makes a row of a team, and when. */
export type Stamps = { teamId: number; actor: Actor; now: Date };

/** The team, `createdBy` and time columns of a new row of a team. */
export const newTeamRow = ({ teamId, actor, now }: Stamps) => ({
  teamId,
  ...createdByOf(actor),
  createdAt: now,
  updatedAt: now,
});
