import { and, desc, eq, inArray, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Db, DbTransaction } from '../../db/client.ts';
import {
  type OrganisationRole,
  organisationMembers,
  type TeamRole,
  teamMembers,
  type WebhookPauseReason,
  webhookEndpoints,
} from '../../db/schema/index.ts';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
type Executor = Db | DbTransaction;

/** Whom an endpoint belongs to: a team or an organisation. */
export type EndpointOwner = { teamId: number } | { organisationId: number };

/** The endpoints of an owner, as a condition. */
export const ownedBy = (owner: EndpointOwner) =>
  'teamId' in owner
    ? eq(webhookEndpoints.teamId, owner.teamId)
    : eq(webhookEndpoints.organisationId, owner.organisationId);

/** The owner of an endpoint row. */
export const ownerOf = (row: EndpointRow): EndpointOwner =>
  row.teamId !== null ? { teamId: row.teamId } : { organisationId: row.organisationId as number };

export async function insertEndpoint(
  executor: Executor,
  values: typeof webhookEndpoints.$inferInsert,
): Promise<EndpointRow> {
  const [row] = await executor.insert(webhookEndpoints).values(values).returning();
  return row!;
}

/** An endpoint of the team, or undefined. */
export async function endpointOfTeam(
  executor: Executor,
  teamId: number,
  endpointId: number,
): Promise<EndpointRow | undefined> {
  const [row] = await executor
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.teamId, teamId)))
    .limit(1);
  return row;
}

/** An endpoint of one of the user's teams with the user's role there, or undefined. */
export async function endpointOfMember(
  db: Db,
  userId: string,
  endpointId: number,
): Promise<{ endpoint: EndpointRow; role: TeamRole } | undefined> {
  const [row] = await db
    .select({ endpoint: webhookEndpoints, role: teamMembers.role })
    .from(webhookEndpoints)
    .innerJoin(
      teamMembers,
      and(eq(teamMembers.teamId, webhookEndpoints.teamId), eq(teamMembers.userId, userId)),
    )
    .where(eq(webhookEndpoints.id, endpointId))
    .limit(1);
  return row;
}

/** An endpoint of one of the user's organisations with the user's role there, or undefined. */
export async function endpointOfOrganisationMember(
  db: Db,
  userId: string,
  endpointId: number,
): Promise<{ endpoint: EndpointRow; role: OrganisationRole } | undefined> {
  const [row] = await db
    .select({ endpoint: webhookEndpoints, role: organisationMembers.role })
    .from(webhookEndpoints)
    .innerJoin(
      organisationMembers,
      and(
        eq(organisationMembers.organisationId, webhookEndpoints.organisationId),
        eq(organisationMembers.userId, userId),
      ),
    )
    .where(eq(webhookEndpoints.id, endpointId))
    .limit(1);
  return row;
}

/** The organisation's endpoints, newest first, in pages of `limit` after the endpoint id `before`. */
export function listEndpointsOfOrganisation(db: Db, organisationId: number, limit: number, before?: number) {
  return db
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.organisationId, organisationId),
        before ? lt(webhookEndpoints.id, before) : undefined,
      ),
    )
    .orderBy(desc(webhookEndpoints.id))
    .limit(limit);
}

/** Endpoints of the given teams, newest first, in pages of `limit` after the endpoint id `before`. */
export async function listEndpointsOfTeams(
  db: Db,
  teamIds: readonly number[],
  limit: number,
  before?: number,
): Promise<EndpointRow[]> {
  if (teamIds.length === 0) return [];
  return db
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        inArray(webhookEndpoints.teamId, [...teamIds]),
        before ? lt(webhookEndpoints.id, before) : undefined,
      ),
    )
    .orderBy(desc(webhookEndpoints.id))
    .limit(limit);
}

/** Endpoints of every team the user belongs to, newest first. */
export async function listEndpointsOfMember(
  db: Db,
  userId: string,
  limit: number,
  before?: number,
): Promise<EndpointRow[]> {
  return db
    .select({ endpoint: webhookEndpoints })
    .from(webhookEndpoints)
    .innerJoin(
      teamMembers,
      and(eq(teamMembers.teamId, webhookEndpoints.teamId), eq(teamMembers.userId, userId)),
    )
    .where(before ? lt(webhookEndpoints.id, before) : undefined)
    .orderBy(desc(webhookEndpoints.id))
    .limit(limit)
    .then((rows) => rows.map((row) => row.endpoint));
}

export async function updateEndpoint(
  executor: Executor,
  owner: EndpointOwner,
  endpointId: number,
  changes: Partial<typeof webhookEndpoints.$inferInsert>,
): Promise<EndpointRow | undefined> {
  const [row] = await executor
    .update(webhookEndpoints)
    .set(changes)
    .where(and(eq(webhookEndpoints.id, endpointId), ownedBy(owner)))
    .returning();
  return row;
}

export async function deleteEndpoint(
  executor: Executor,
  owner: EndpointOwner,
  endpointId: number,
): Promise<boolean> {
  const rows = await executor
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), ownedBy(owner)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/** Locks an endpoint row for the rest of the transaction (a secret rotation reads then replaces secrets). */
export async function lockEndpoint(
  tx: DbTransaction,
  owner: EndpointOwner,
  endpointId: number,
): Promise<EndpointRow | undefined> {
  const [row] = await tx
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), ownedBy(owner)))
    .for('update')
    .limit(1);
  return row;
}

export type PausedEndpoint = Pick<EndpointRow, 'id' | 'teamId' | 'organisationId' | 'url'>;

/**
 * Pauses the endpoints matching `which` that are not paused yet: disabled, with when and why. Answers them.
 */
export async function pauseEndpoints(
  executor: Executor,
  which: SQL | undefined,
  reason: WebhookPauseReason,
  now: Date,
): Promise<PausedEndpoint[]> {
  return executor
    .update(webhookEndpoints)
    .set({
      enabled: false,
      disabledAt: sql`coalesce(${webhookEndpoints.disabledAt}, ${now.toISOString()}::timestamptz)`,
      pausedAt: now,
      pausedReason: reason,
      updatedAt: now,
    })
    .where(and(which, isNull(webhookEndpoints.pausedAt)))
    .returning({
      id: webhookEndpoints.id,
      teamId: webhookEndpoints.teamId,
      organisationId: webhookEndpoints.organisationId,
      url: webhookEndpoints.url,
    });
}
