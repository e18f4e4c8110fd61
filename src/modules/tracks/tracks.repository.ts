import { and, asc, eq, inArray, isNull, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type Placeholders, preparedQuery, preparedSelect } from '../../db/prepared.ts';
import { files, trackLinks, tracks, trackTeams, trackVersions } from '../../db/schema/index.ts';
import type { Actor } from '../../events/actor.ts';
import type { Principal } from '../../plugins/auth.ts';
import { MAX_PAGE_SIZE } from '../../shared/schemas.ts';
import { keyIsActiveSql, sessionIsActiveSql } from '../../shared/session-state.ts';
import type { TrackRow } from './track-access.ts';

// Drizzle writes columns of a single-table select unqualified: outer references in subqueries must be explicit.
const outerTrackId = sql.raw('"tracks"."id"');
const outerTeamId = sql.raw('"tracks"."team_id"');

/**
 * The teams that hold each track, owning team first. The owning team always holds its track (it cannot be
 * unshared), so the others follow it in the primary key's order: no sort per row, which a page of 50 tracks
 * felt.
 */
const teamIdsOf = sql<number[]>`array_prepend(${outerTeamId}, array(select tt.team_id from track_teams tt
  where tt.track_id = ${outerTrackId} and tt.team_id <> ${outerTeamId} order by tt.team_id))`;

/** A track as lists show it: everything but the long texts (lyrics and notes), which only its detail has. */
const trackSummaryColumns = {
  id: tracks.id,
  teamId: tracks.teamId,
  statusId: tracks.statusId,
  position: tracks.position,
  title: tracks.title,
  artist: tracks.artist,
  genre: tracks.genre,
  tags: tracks.tags,
  bpm: tracks.bpm,
  key: tracks.musicalKey,
  language: tracks.language,
  isrc: tracks.isrc,
  label: tracks.label,
  distributor: tracks.distributor,
  explicit: tracks.explicit,
  releaseDate: tracks.releaseDate,
  coverFileId: tracks.coverFileId,
  teamIds: teamIdsOf,
  createdBy: tracks.createdBy,
  deletedAt: tracks.deletedAt,
  createdAt: tracks.createdAt,
  updatedAt: tracks.updatedAt,
};

const trackColumns = { ...trackSummaryColumns, lyrics: tracks.lyrics, notes: tracks.notes };

export type TrackView = NonNullable<Awaited<ReturnType<typeof findTrackView>>>;

const trackViewById = preparedQuery('tracks_view_by_id', (db, p: Placeholders<{ id: number }>) =>
  db.select(trackColumns).from(tracks).where(eq(tracks.id, p.id)).limit(1),
);

export async function findTrackView(db: Db, trackId: number) {
  const [row] = await trackViewById(db, { id: trackId });
  return row;
}

type LinkView = {
  id: number;
  kind: 'reference' | 'inspiration';
  url: string;
  platform: string | null;
  createdAt: string;
};

const linksOfTrackJson = sql<LinkView[]>`(select coalesce(json_agg(json_build_object(
    'id', l.id, 'kind', l.kind, 'url', l.url, 'platform', l.platform,
    'createdAt', to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) order by l.id), '[]'::json)
  from track_links l where l.track_id = ${outerTrackId})`;

/** A live track with its links and current cover file, when `visible`; `callerActive` rides along. */
function trackRead(db: Db, id: SQLWrapper, visible: SQL, callerActive: SQL<boolean>) {
  const fields = {
    ...trackColumns,
    links: linksOfTrackJson,
    coverFileKey: files.key,
    coverFileName: files.originalName,
    coverFileType: files.contentType,
    coverFileFound: files.id,
    callerActive,
  };
  const query = db
    .select(fields)
    .from(tracks)
    .leftJoin(files, and(eq(files.id, tracks.coverFileId), eq(files.teamId, tracks.teamId)))
    .where(and(eq(tracks.id, id), isNull(tracks.deletedAt), visible))
    .limit(1);
  return { fields, query };
}

type SessionRead = { id: number; userId: string; sessionId: string; now: Date };
const trackReadForSession = preparedSelect('tracks_read_for_session', (db, p: Placeholders<SessionRead>) =>
  trackRead(
    db,
    p.id,
    sql`exists (select 1 from track_teams tt inner join team_members m on m.team_id = tt.team_id
      where tt.track_id = ${outerTrackId} and m.user_id = ${p.userId})`,
    sessionIsActiveSql(p.sessionId, p.userId, p.now),
  ),
);
type KeyRead = { id: number; teamId: number; keyId: number; now: Date };
const trackReadForKey = preparedSelect('tracks_read_for_key', (db, p: Placeholders<KeyRead>) =>
  trackRead(
    db,
    p.id,
    sql`exists (select 1 from track_teams tt where tt.track_id = ${outerTrackId} and tt.team_id = ${p.teamId})`,
    keyIsActiveSql(p.keyId, p.now),
  ),
);

/**
 * A live track the principal may read, with its links and cover file, in one statement that also tells
 * whether the caller's session is still active; undefined when the track is missing or hidden from them.
 */
export async function readTrack(db: Db, principal: Principal, trackId: number, now: Date) {
  const [row] =
    principal.type === 'key'
      ? await trackReadForKey(db, { id: trackId, teamId: principal.teamId, keyId: principal.keyId, now })
      : await trackReadForSession(db, {
          id: trackId,
          userId: principal.userId,
          sessionId: principal.sessionId,
          now,
        });
  return row;
}

export type TrackSort = 'updated' | 'title';

/** Whose tracks a list shows: a session's (all its teams, or `teamId` if they are in it) or a key's team. */
export type ListCaller =
  | { type: 'session'; userId: string; sessionId: string; teamId?: number | undefined }
  | { type: 'key'; keyId: number; teamId: number };

export type TrackListFilter = {
  caller: ListCaller;
  now: Date;
  statusId?: string | undefined;
  q?: string | undefined;
  sort: TrackSort;
  after?: [string, number] | undefined;
  limit: number;
};

const titleKey = sql<string>`lower(${tracks.title})`;

/** The values of a list statement; each variant reads those its filters need. */
type ListArgs = {
  userId: string;
  sessionId: string;
  keyId: number;
  teamId: number;
  now: Date;
  statusId: string;
  q: string;
  afterKey: string;
  afterId: number;
  limit: number;
};

/** What a list statement's text depends on (its values are parameters). */
type ListShape = {
  caller: 'key' | 'session' | 'member';
  sort: TrackSort;
  after: boolean;
  status: boolean;
  q: boolean;
};

/** A page's filters and order on the tracks of `alias` (status, text, after the cursor). */
function pageOf(alias: string, p: Placeholders<ListArgs>, shape: ListShape) {
  const column = (name: string) => sql.raw(`"${alias}"."${name}"`);
  const title = sql`lower(${column('title')})`;
  const filters = and(
    sql`${column('deleted_at')} is null`,
    shape.status ? sql`${column('status_id')} = ${p.statusId}` : undefined,
    shape.q
      ? sql`strpos(lower(${column('title')} || ' ' || coalesce(${column('artist')}, '') || ' ' || coalesce(${column('genre')}, '')), lower(${p.q})) > 0`
      : undefined,
    shape.after && shape.sort === 'updated'
      ? sql`(${column('updated_at')}, ${column('id')}) < (${p.afterKey}::timestamptz, ${p.afterId})`
      : undefined,
    shape.after && shape.sort === 'title'
      ? sql`(${title}, ${column('id')}) > (${p.afterKey}, ${p.afterId})`
      : undefined,
  )!;
  const order =
    shape.sort === 'updated'
      ? sql`${column('updated_at')} desc, ${column('id')} desc`
      : sql`${title}, ${column('id')}`;
  return { filters, order };
}

/**
 * The ids of a page of `team`'s tracks: a page of those it owns, walked on its own index, and a page of
 * those shared with it, at most twice the page; a team of any size costs a page.
 */
function teamPage(team: SQL, p: Placeholders<ListArgs>, shape: ListShape) {
  const { filters, order } = pageOf('o', p, shape);
  return sql`(select o.id from tracks o where o.team_id = ${team} and ${filters} order by ${order} limit ${p.limit})
    union all
    (select o.id from track_teams s join tracks o on o.id = s.track_id
      where s.team_id = ${team} and not s.owner and ${filters} order by ${order} limit ${p.limit})`;
}

/** Up to this many teams, a session's page across its teams is made of a page of each. */
const TEAMS_PAGED_ONE_BY_ONE = sql.raw('20');
// A constant bound, not the page's own limit: a generic plan takes a limit it cannot see for a tenth of
// the table, and plans a parallel walk whose workers start even when the branch is not taken (30-50 ms).
const SESSION_PAGE_BOUND = sql.raw(String(MAX_PAGE_SIZE + 1));

/**
 * The ids of a page of the tracks of every team of a session's user: a page of each team when they are in
 * a few (a walk of every track by the page's order would pass all the others' first), else the first
 * tracks in that order that one of their teams holds. Which one runs is decided as the statement runs.
 */
function sessionPageIds(p: Placeholders<ListArgs>, shape: ListShape) {
  const { filters, order } = pageOf('o', p, shape);
  const teams = sql`(select count(*) from team_members c where c.user_id = ${p.userId})`;
  return sql`${outerTrackId} in (
    (select page.id from team_members m cross join lateral (${teamPage(sql`m.team_id`, p, shape)}) page
      where m.user_id = ${p.userId} and ${teams} <= ${TEAMS_PAGED_ONE_BY_ONE})
    union all
    (select o.id from tracks o where ${filters} and ${teams} > ${TEAMS_PAGED_ONE_BY_ONE}
      and exists (select 1 from track_teams h join team_members m on m.team_id = h.team_id
        where h.track_id = o.id and m.user_id = ${p.userId})
      order by ${order} limit ${SESSION_PAGE_BOUND}))`;
}

/** The caller's tracks (held by a team they may read) and whether their session or key is active. */
function heldByCaller(p: Placeholders<ListArgs>, shape: ListShape) {
  const onTeamPage = sql`${outerTrackId} in (${teamPage(sql`${p.teamId}`, p, shape)})`;
  if (shape.caller === 'key') return { held: onTeamPage, callerActive: keyIsActiveSql(p.keyId, p.now) };
  const callerActive = sessionIsActiveSql(p.sessionId, p.userId, p.now);
  if (shape.caller === 'session') return { held: sessionPageIds(p, shape), callerActive };
  // Tested once for the statement (it names no column of the row).
  const member = sql`exists (select 1 from team_members m where m.team_id = ${p.teamId} and m.user_id = ${p.userId})`;
  return { held: sql`${onTeamPage} and ${member}`, callerActive };
}

function listStatement(db: Db, p: Placeholders<ListArgs>, shape: ListShape) {
  const { held, callerActive } = heldByCaller(p, shape);
  const { filters, order } = pageOf('tracks', p, shape);
  const fields = { ...trackSummaryColumns, titleKey, callerActive };
  const query = db.select(fields).from(tracks).where(and(filters, held)).orderBy(order).limit(p.limit);
  return { fields, query };
}

/** One prepared statement per shape of list, made on first use (at most 48). */
const listStatements = new Map<string, ReturnType<typeof preparedListStatement>>();

const preparedListStatement = (shape: ListShape, name: string) =>
  preparedSelect(name, (db, p: Placeholders<ListArgs>) => listStatement(db, p, shape));

/**
 * Live tracks the caller may read, in the requested order after the keyset cursor, each with `callerActive`
 * (whether the caller's session or key is still active), in one statement.
 */
export async function listTracks(db: Db, f: TrackListFilter) {
  const { caller } = f;
  const shape: ListShape = {
    caller: caller.type === 'key' ? 'key' : caller.teamId === undefined ? 'session' : 'member',
    sort: f.sort,
    after: f.after !== undefined,
    status: f.statusId !== undefined,
    q: f.q !== undefined,
  };
  const name = `tracks_list_${shape.caller}_${shape.sort}${shape.after ? '_after' : ''}${shape.status ? '_status' : ''}${shape.q ? '_q' : ''}`;
  let statement = listStatements.get(name);
  if (!statement) {
    statement = preparedListStatement(shape, name);
    listStatements.set(name, statement);
  }
  return statement(db, {
    ...(caller.type === 'key'
      ? { keyId: caller.keyId, teamId: caller.teamId }
      : {
          userId: caller.userId,
          sessionId: caller.sessionId,
          ...(caller.teamId !== undefined ? { teamId: caller.teamId } : {}),
        }),
    now: f.now,
    ...(f.statusId !== undefined ? { statusId: f.statusId } : {}),
    ...(f.q !== undefined ? { q: f.q } : {}),
    ...(f.after ? { afterKey: f.after[0], afterId: f.after[1] } : {}),
    limit: f.limit,
  } as ListArgs);
}

/** The next free position at the end of a status column. */
async function nextPosition(db: Db, teamId: number, statusId: string): Promise<number> {
  const [row] = await db
    .select({ next: sql<number>`coalesce(max(${tracks.position}) + 1, 0)`.mapWith(Number) })
    .from(tracks)
    .where(and(eq(tracks.teamId, teamId), eq(tracks.statusId, statusId)));
  return row?.next ?? 0;
}

export type NewTrack = { teamId: number; statusId: string; title: string; audioFileName: string; now: Date };

/** Inserts a track at the end of its status column with its first version; the owning team holds it. */
export async function insertTrackWithVersion(tx: Db, input: NewTrack, actor: Actor) {
  const position = await nextPosition(tx, input.teamId, input.statusId);
  const by = { createdBy: actor.actorUserId, createdByKeyId: actor.actorKeyId };
  const [track] = await tx
    .insert(tracks)
    .values({
      teamId: input.teamId,
      statusId: input.statusId,
      position,
      title: input.title,
      ...by,
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returning();
  await tx
    .insert(trackTeams)
    .values({ trackId: track!.id, teamId: input.teamId, addedBy: actor.actorUserId, owner: true });
  const [version] = await tx
    .insert(trackVersions)
    .values({
      trackId: track!.id,
      position: 0,
      name: 'Version 1',
      audioFileName: input.audioFileName,
      ...by,
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returning();
  return { track: track!, version: version! };
}

export type TrackFields = Partial<
  Pick<
    TrackRow,
    | 'title'
    | 'artist'
    | 'genre'
    | 'tags'
    | 'bpm'
    | 'musicalKey'
    | 'language'
    | 'isrc'
    | 'label'
    | 'distributor'
    | 'explicit'
    | 'lyrics'
    | 'notes'
    | 'releaseDate'
    | 'statusId'
    | 'position'
    | 'deletedAt'
  >
>;

export async function updateTrack(db: Db, trackId: number, fields: TrackFields, now: Date): Promise<void> {
  await db
    .update(tracks)
    .set({ ...fields, updatedAt: now })
    .where(eq(tracks.id, trackId));
}

/** Moves a track to the end of another status column. */
export async function moveTrackToStatus(db: Db, track: TrackRow, statusId: string, now: Date) {
  const position = await nextPosition(db, track.teamId, statusId);
  await updateTrack(db, track.id, { statusId, position }, now);
}

export async function deleteTrack(db: Db, trackId: number): Promise<void> {
  await db.delete(tracks).where(eq(tracks.id, trackId));
}

/** Ids of the team's live tracks in one status column, locked for a reorder. */
export async function lockStatusColumn(db: Db, teamId: number, statusId: string): Promise<number[]> {
  const rows = await db
    .select({ id: tracks.id })
    .from(tracks)
    .where(and(eq(tracks.teamId, teamId), eq(tracks.statusId, statusId), isNull(tracks.deletedAt)))
    .for('update');
  return rows.map((r) => r.id);
}

export async function setPositions(db: Db, ordered: number[]): Promise<void> {
  if (ordered.length === 0) return;
  const cases = sql.join(
    ordered.map((id, i) => sql`when ${id}::integer then ${i}::integer`),
    sql` `,
  );
  await db
    .update(tracks)
    .set({ position: sql`case ${tracks.id} ${cases} end` })
    .where(inArray(tracks.id, ordered));
}

export async function shareTrack(db: Db, trackId: number, teamId: number, userId: string | null) {
  const rows = await db
    .insert(trackTeams)
    .values({ trackId, teamId, addedBy: userId })
    .onConflictDoNothing()
    .returning({ teamId: trackTeams.teamId });
  return rows.length > 0;
}

/**
 * Ends the share of a track with a team; false when the team did not hold it through a share. The track row
 * is locked first, so album changes that hold it (key share) finish before, and later ones wait.
 */
export async function unshareTrack(db: Db, trackId: number, teamId: number): Promise<boolean> {
  await db.select({ id: tracks.id }).from(tracks).where(eq(tracks.id, trackId)).for('update');
  const rows = await db
    .delete(trackTeams)
    .where(and(eq(trackTeams.trackId, trackId), eq(trackTeams.teamId, teamId)))
    .returning({ teamId: trackTeams.teamId });
  return rows.length > 0;
}

/** The track's references and inspirations, oldest first. */
const linksOfTrack = preparedQuery('tracks_links_of_track', (db, p: Placeholders<{ trackId: number }>) =>
  db
    .select({
      id: trackLinks.id,
      kind: trackLinks.kind,
      url: trackLinks.url,
      platform: trackLinks.platform,
      createdAt: trackLinks.createdAt,
    })
    .from(trackLinks)
    .where(eq(trackLinks.trackId, p.trackId))
    .orderBy(asc(trackLinks.id)),
);

export function listLinks(db: Db, trackId: number) {
  return linksOfTrack(db, { trackId });
}

export async function insertLink(
  db: Db,
  values: { trackId: number; kind: 'reference' | 'inspiration'; url: string; platform: string | null },
  actor: Actor,
) {
  const [row] = await db
    .insert(trackLinks)
    .values({ ...values, createdBy: actor.actorUserId, createdByKeyId: actor.actorKeyId })
    .returning();
  return row!;
}

/** Status usage of the team's tracks, soft-deleted ones included (they may come back). */
export async function trackStatusesInUse(db: Db, teamId: number, statusIds: string[]) {
  const rows = await db
    .selectDistinct({ statusId: tracks.statusId })
    .from(tracks)
    .where(and(eq(tracks.teamId, teamId), inArray(tracks.statusId, statusIds)));
  return rows.map((r) => r.statusId);
}

export async function moveTracksBetweenStatuses(db: Db, teamId: number, from: string, to: string) {
  const base = await nextPosition(db, teamId, to);
  await db
    .update(tracks)
    .set({ statusId: to, position: sql`${tracks.position} + ${base}` })
    .where(and(eq(tracks.teamId, teamId), eq(tracks.statusId, from)));
}

/** Marks the track as changed (lists sort by it). */
export async function touchTrack(db: Db, trackId: number, now: Date): Promise<void> {
  await db.update(tracks).set({ updatedAt: now }).where(eq(tracks.id, trackId));
}

export async function versionIdsOf(db: Db, trackId: number): Promise<number[]> {
  const rows = await db
    .select({ id: trackVersions.id })
    .from(trackVersions)
    .where(eq(trackVersions.trackId, trackId));
  return rows.map((r) => r.id);
}
