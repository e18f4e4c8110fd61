import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';

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
 * with the text shown for a hit. Their ranking weights are the vector's weights (title A ... notes D).
 */
const TRACK_FIELDS: { field: SearchField; text: SQL }[] = [
  { field: 'title', text: sql`t.title` },
  {
    field: 'metadata',
    text: sql`tmw_track_metadata(t.artist, t.genre, t.tags, t.musical_key, t.language, t.isrc, t.label, t.distributor)`,
  },
  { field: 'lyrics', text: sql`t.lyrics` },
  { field: 'notes', text: sql`t.notes` },
];
/** ts_rank weights for {D, C, B, A}: notes, lyrics, metadata, title. */
const TRACK_WEIGHTS = sql`'{0.5, 0.5, 0.7, 1.0}'::float4[]`;

/**
 * Where hits come from: the track's own stored vector, and what hangs off a track (its vector expression
 * written exactly as in the GIN index of its migration). `from` joined on `link` reaches it from the
 * team's track `tt`; `rank` weighs a match there.
 */
type Source = {
  field: SearchField | null;
  from: SQL;
  link: SQL;
  vector: SQL;
  content: SQL;
  rank: (vector: SQL, query: SQL) => SQL;
};

const textVector = (text: SQL) => sql`tmw_search_vector(${text})`;
const weighted = (weight: number) => (vector: SQL, query: SQL) =>
  sql`ts_rank(${vector}, ${query}) * ${sql.raw(String(weight))}::float8`;
const ofVersions = (table: string) => sql`track_versions v join ${sql.raw(table)} s on s.version_id = v.id`;

const SOURCES: Source[] = [
  {
    // Attributed to one of TRACK_FIELDS once the page is known.
    field: null,
    from: sql`tracks t`,
    link: sql`t.id = tt.track_id`,
    vector: sql`t.search_vector`,
    content: sql`null`,
    rank: (vector, query) => sql`ts_rank(${TRACK_WEIGHTS}, ${vector}, ${query})`,
  },
  ...(
    [
      ['comment', 'version_comments', sql`s.body`],
      ['todo', 'version_todos', sql`s.text`],
      ['stem', 'version_stems', sql`coalesce(s.name, '') || ' ' || coalesce(s.instrument, '')`],
    ] as const
  ).map(([field, table, text]) => ({
    field,
    from: ofVersions(table),
    link: sql`v.track_id = tt.track_id`,
    vector: textVector(text),
    content: text,
    rank: weighted(0.4),
  })),
  {
    field: 'reference',
    from: sql`track_links s`,
    link: sql`s.track_id = tt.track_id`,
    vector: textVector(
      sql`regexp_replace(s.url, '[^[:alnum:]]+', ' ', 'g') || ' ' || coalesce(s.platform, '')`,
    ),
    content: sql`s.url`,
    rank: weighted(0.3),
  },
];

/**
 * A team with more tracks than this is searched through the GIN indexes (matches across the whole
 * table, then kept when the team holds them); a smaller one row by row from its own tracks, whose
 * cost follows the team's size whatever the word. The planner cannot tell the two apart itself: it has
 * no statistics for prefix queries.
 */
export const LARGE_TEAM_TRACKS = 5000;

/** The hits of one source for the team's tracks, read through the team (`byTeam`) or the index. */
function branch(s: Source, teamId: number, query: SQL, byTeam: boolean): SQL {
  const field = s.field === null ? sql`null::text` : sql`${s.field}::text`;
  if (byTeam)
    return sql`select tt.track_id, ${field} as field, hit.content, ${s.rank(sql`hit.vector`, query)} as rank
      from track_teams tt cross join lateral (
        select ${s.vector} as vector, (${s.content})::text as content from ${s.from} where ${s.link} offset 0
      ) hit
      where tt.team_id = ${teamId} and hit.vector @@ ${query}`;
  return sql`select tt.track_id, ${field} as field, (${s.content})::text as content,
      ${s.rank(s.vector, query)} as rank
    from track_teams tt, ${s.from}
    where tt.team_id = ${teamId} and ${s.link} and ${s.vector} @@ ${query}`;
}

async function isLargeTeam(db: Db, teamId: number, threshold: number): Promise<boolean> {
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
  options: { largeTeamTracks?: number } = {},
) {
  const all = sql`to_tsquery('simple'::regconfig, tmw_fold(${query.allTerms}))`;
  const any = sql`to_tsquery('simple'::regconfig, tmw_fold(${query.anyTerm}))`;
  const byTeam = !(await isLargeTeam(db, teamId, options.largeTeamTracks ?? LARGE_TEAM_TRACKS));
  const branches = SOURCES.map((s) => branch(s, teamId, all, byTeam));
  const attributed = (q: SQL) =>
    TRACK_FIELDS.map((f) => sql`when tmw_search_vector(${f.text}) @@ ${q} then ${f.field}`);
  const shown = (q: SQL) =>
    TRACK_FIELDS.map((f) => sql`when tmw_search_vector(${f.text}) @@ ${q} then ${f.text}`);
  const best = sql`select distinct on (hit.track_id) hit.track_id, hit.field, hit.content, hit.rank
    from (${sql.join(branches, sql` union all `)}) hit
    order by hit.track_id, hit.rank desc`;
  // Attribution reads the text of the few tracks on the page only, after the limit.
  const top = sql`(select best.* from (${best}) best
    join tracks live on live.id = best.track_id and live.deleted_at is null
    order by best.rank desc, best.track_id limit ${limit}) top`;
  const rows = await db
    .select({
      trackId: sql<number>`top.track_id`.mapWith(Number),
      field: sql<SearchField>`coalesce(top.field, case ${sql.join(attributed(all), sql` `)}
        ${sql.join(attributed(any), sql` `)} else 'title' end)`,
      content: sql<string>`coalesce(top.content, case ${sql.join(shown(all), sql` `)}
        ${sql.join(shown(any), sql` `)} else t.title end)`,
      rank: sql<number>`top.rank`.mapWith(Number),
      title: sql<string>`t.title`,
      artist: sql<string | null>`t.artist`,
      statusId: sql<string>`t.status_id`,
      teamId: sql<number>`t.team_id`.mapWith(Number),
    })
    .from(top)
    .innerJoin(sql`tracks t`, sql`t.id = top.track_id`)
    .orderBy(sql`top.rank desc, top.track_id`);
  return rows;
}
