import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { activityEntries, organisationTeams } from '../../db/schema/index.ts';
import type { Principal } from '../../plugins/auth.ts';
import { type Actor, actorOf, recordActivity } from '../activity/activity.ts';
import { notifyFromActivity } from '../notifications/notify.ts';

export type OrganisationActivity = {
  action: string;
  subjectType: string;
  subjectId: string | number;
  data?: Record<string, unknown>;
};

/** Who acted: a caller of the API, or (null) an operator at the command line, recorded without an actor. */
export type Acting = Principal | null;

const OPERATOR: Actor = { actorUserId: null, actorKeyId: null };
const actorOfActing = (acting: Acting) => (acting ? actorOf(acting) : OPERATOR);

/**
 * Records a change of the organisation itself (its name, members, places, camps, RSVPs) in the activity of
 * every team of the organisation, in one statement: activity belongs to teams, and the members of those
 * teams are the organisation's readers. An organisation without teams has nowhere to record it.
 */
export async function recordOrganisationActivity(
  tx: Db,
  acting: Acting,
  organisationId: number,
  entry: OrganisationActivity,
): Promise<void> {
  const actor = actorOfActing(acting);
  const data = JSON.stringify({ organisationId, ...entry.data });
  await tx.execute(sql`insert into ${activityEntries}
      (team_id, actor_user_id, actor_key_id, action, subject_type, subject_id, data)
    select ${organisationTeams.teamId}, ${actor.actorUserId}::uuid, ${actor.actorKeyId}::integer,
      ${entry.action}, ${entry.subjectType}, ${String(entry.subjectId)}, ${data}::jsonb
    from ${organisationTeams} where ${eq(organisationTeams.organisationId, organisationId)}`);
  await notifyFromActivity(tx, {
    teamId: null,
    organisationId,
    actorUserId: actor.actorUserId,
    action: entry.action,
    subjectType: entry.subjectType,
    subjectId: String(entry.subjectId),
    data: entry.data ?? {},
  });
}

/** Records a change that concerns one team (its joining or leaving, its submissions and files). */
export function recordTeamActivity(
  tx: Db,
  acting: Acting,
  teamId: number,
  organisationId: number,
  entry: OrganisationActivity,
): Promise<void> {
  return recordActivity(tx, {
    ...actorOfActing(acting),
    teamId,
    action: entry.action,
    subjectType: entry.subjectType,
    subjectId: entry.subjectId,
    data: { organisationId, ...entry.data },
  });
}
