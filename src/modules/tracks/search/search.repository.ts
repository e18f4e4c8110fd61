import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { type Placeholders, preparedSelect } from '../../../db/prepared.ts';

export const SEARCH_FIELDS = [
  'title',
  'metadata',
  'lyrics',
  'notes',
  'comment',
  'todo',
  'reference',
  'stem',
] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/**
 * The fields of a track's own stored vector (migration 0010), in the order a hit is attributed to them,
 * each with its weight there (title A ... notes D) and the text shown for a hit. A field holds a term
 * when the vector's lexemes of its weight do, so attribution reads the stored vector, never the text.
 */
const TRACK_FIELDS: { field: SearchField; weight: string; text: SQL }[] = [
  { field: 'title', weight: 'a', text: sql`t.title` },
  {
    field: 'metadata',
    weight: 'b',
    text: sql`tmw_track_metadata(t.artist, t.genre, t.tags, t.musical_key, t.language, t.isrc, t.label, t.distributor)`,
  },
  { field: 'lyrics', weight: 'c', text: sql`t.lyrics` },
  { field: 'notes', weight: 'd', text: sql`t.notes` },
];
/** ts_rank weights for {D, C, B, A}: notes, lyrics, metadata, title. */
const TRACK_WEIGHTS = sql`'{0.5, 0.5, 0.7, 1.0}'::float4[]`;

/**
 * What hangs off a track, each row with its stored vector (migration 0013): `table` rows belong to a
 * version of the track (`s.version_id`) or to the track itself (`s.track_id`); `weight` scales the rank
 * of a match there.
 */
type Source = {
  field: SearchField;
  table: string;
  ofVersion: boolean;
  content: SQL;
  weight: number;
};

const SOURCES: Source[] = [
  { field: 'comment', table: 'version_comments', ofVersion: true, content: sql`s.body`, weight: 0.4 },
  { field: 'todo', table: 'version_todos', ofVersion: true, content: sql`s.text`, weight: 0.4 },
  {
    field: 'stem',
    table: 'version_stems',
    ofVersion: true,
    content: sql`coalesce(s.name, '') || ' ' || coalesce(s.instrument, '')`,
    weight: 0.4,
  },
  { field: 'reference', table: 'track_links', ofVersion: false, content: sql`s.url`, weight: 0.3 },
];

const trackRank = (vector: SQL, query: SQL) => sql`ts_rank(${TRACK_WEIGHTS}, ${vector}, ${query})`;
const sourceRank = (s: Source, vector: SQL, query: SQL) =>
  sql`ts_rank(${vector}, ${query}) * ${sql.raw(String(s.weight))}::float8`;

/**
 * A team with more tracks than this is searched through the GIN indexes (matches across the whole
 * table, then kept when the team holds them); a smaller one row by row from its own tracks, whose
 * cost follows the team's size whatever the word. The planner cannot tell the two apart itself: it has
 * no statistics for prefix queries.
 */
export const LARGE_TEAM_TRACKS = 5000;

/**
 * Every hit (track id, source field or null for the track's own vector, content, rank) on the team's
 * live tracks. Read through the team: its live tracks once, with their vectors, then what hangs off
 * each of them (the fence keeps the planner on the link indexes). Else through the GIN indexes.
 */
function hits(teamId: unknown, query: SQL, byTeam: boolean): SQL {
  if (byTeam) {
    const team = sql`select t.id as track_id, t.search_vector from track_teams tt
      join tracks t on t.id = tt.track_id and t.deleted_at is null where tt.team_id = ${teamId}`;
    const versions = sql`select tt.track_id, v.id as version_id from team tt
      join track_versions v on v.track_id = tt.track_id`;
    const own = sql`select tt.track_id, null::text as field, null::text as content,
      ${trackRank(sql`tt.search_vector`, query)} as rank
      from team tt where tt.search_vector @@ ${query}`;
    const hanging = SOURCES.map(
      (s) => sql`select o.track_id, ${s.field}::text as field, hit.content,
        ${sourceRank(s, sql`hit.vector`, query)} as rank
      from ${s.ofVersion ? sql`versions o` : sql`team o`} cross join lateral (
        select s.search_vector as vector, (${s.content})::text as content from ${sql.raw(s.table)} s
        where ${s.ofVersion ? sql`s.version_id = o.version_id` : sql`s.track_id = o.track_id`} offset 0
      ) hit
      where hit.vector @@ ${query}`,
    );
    return sql`with team as materialized (${team}), versions as materialized (${versions})
      ${sql.join([own, ...hanging], sql` union all `)}`;
  }
  const own = sql`select tt.track_id, null::text as field, null::text as content,
      ${trackRank(sql`t.search_vector`, query)} as rank
    from track_teams tt, tracks t
    where tt.team_id = ${teamId} and t.id = tt.track_id and t.search_vector @@ ${query}`;
  const hanging = SOURCES.map((s) => {
    const [from, link] = s.ofVersion
      ? [
          sql`track_versions v join ${sql.raw(s.table)} s on s.version_id = v.id`,
          sql`v.track_id = tt.track_id`,
        ]
      : [sql`${sql.raw(s.table)} s`, sql`s.track_id = tt.track_id`];
    return sql`select tt.track_id, ${s.field}::text as field, (${s.content})::text as content,
      ${sourceRank(s, sql`s.search_vector`, query)} as rank
    from track_teams tt, ${from}
    where tt.team_id = ${teamId} and ${link} and s.search_vector @@ ${query}`;
  });
  return sql.join([own, ...hanging], sql` union all `);
}

/** Whether the team holds more than `threshold` tracks (counted no further). */
export async function isLargeTeam(db: Db, teamId: number, threshold = LARGE_TEAM_TRACKS): Promise<boolean> {
  const rows = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from track_teams where team_id = ${teamId} limit ${threshold + 1}) c`,
  );
  const list = Array.isArray(rows) ? rows : (rows as { rows: { n: number }[] }).rows;
  return Number(list[0]?.n ?? 0) > threshold;
}

export type SearchHit = {
  trackId: number;
  field: SearchField;
  content: string;
  rank: number;
  title: string;
  artist: string | null;
  statusId: string;
  teamId: number;
};

type SearchArgs = {
  teamId: number;
  allTerms: string;
  anyTerm: string;
  limit: number;
  /** Where the previous page ended: its last hit's rank and track id (null: the first page). */
  afterRank: number | null;
  afterTrackId: number | null;
};

/** Where a page of hits ends: the rank and track id of its last hit (hits come by rank, then track id). */
export type SearchKey = [rank: number, trackId: number];

/** The search statement of one plan (through the team's own tracks, or through the GIN indexes). */
function searchStatement(db: Db, p: Placeholders<SearchArgs>, byTeam: boolean) {
  // Scalar subqueries: each query is made once per call (an init plan), not once for every row it meets.
  const all = sql`(select to_tsquery('simple'::regconfig, tmw_fold(${p.allTerms})))`;
  const any = sql`(select to_tsquery('simple'::regconfig, tmw_fold(${p.anyTerm})))`;
  const best = sql`select distinct on (hit.track_id) hit.track_id, hit.field, hit.content, hit.rank
    from (${hits(p.teamId, all, byTeam)}) hit
    order by hit.track_id, hit.rank desc`;
  const holds = (q: SQL) =>
    TRACK_FIELDS.map(
      (f) => sql`when ts_filter(t.search_vector, '{${sql.raw(f.weight)}}') @@ ${q} then ${f.field}`,
    );
  // A hit on the track's own vector goes to its first field holding every term, else any; only the
  // tracks of the page are attributed.
  const page = sql`(select best.track_id, best.rank, best.content, coalesce(best.field,
      case ${sql.join(holds(all), sql` `)} ${sql.join(holds(any), sql` `)} else 'title' end) as field
    from (${best}) best
    join tracks t on t.id = best.track_id and t.deleted_at is null
    where ${p.afterTrackId}::integer is null or best.rank < ${p.afterRank}::float8
      or (best.rank = ${p.afterRank}::float8 and best.track_id > ${p.afterTrackId}::integer)
    order by best.rank desc, best.track_id limit ${p.limit}) top`;
  const shown = TRACK_FIELDS.map((f) => sql`when ${f.field} then ${f.text}`);
  const fields = {
    trackId: sql<number>`top.track_id`.mapWith(Number),
    field: sql<SearchField>`top.field`,
    content: sql<string>`coalesce(top.content, case top.field ${sql.join(shown, sql` `)} end)`,
    rank: sql<number>`top.rank`.mapWith(Number),
    title: sql<string>`t.title`,
    artist: sql<string | null>`t.artist`,
    statusId: sql<string>`t.status_id`,
    teamId: sql<number>`t.team_id`.mapWith(Number),
  };
  const query = db
    .select(fields)
    .from(page)
    .innerJoin(sql`tracks t`, sql`t.id = top.track_id`)
    .orderBy(sql`top.rank desc, top.track_id`);
  return { fields, query };
}

const searchByTeam = preparedSelect('tracks_search_by_team', (db, p: Placeholders<SearchArgs>) =>
  searchStatement(db, p, true),
);
const searchByIndex = preparedSelect('tracks_search_by_index', (db, p: Placeholders<SearchArgs>) =>
  searchStatement(db, p, false),
);

/**
 * The best hit of each live track the team holds that matches `allTerms` (a to_tsquery text of `term:*`
 * parts joined by `&`; folded here the way the vectors are), best first. A track hit is attributed to
 * its first field holding every term, else to the first holding any (`anyTerm`).
 */
export async function searchTracks(
  db: Db,
  teamId: number,
  query: { allTerms: string; anyTerm: string },
  limit: number,
  options: { largeTeamTracks?: number; largeTeam?: boolean; after?: SearchKey | undefined } = {},
): Promise<SearchHit[]> {
  const large = options.largeTeam ?? (await isLargeTeam(db, teamId, options.largeTeamTracks));
  const [afterRank, afterTrackId] = options.after ?? [null, null];
  return (large ? searchByIndex : searchByTeam)(db, { teamId, ...query, limit, afterRank, afterTrackId });
}
