import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

export const SEARCH_FIELDS = [
  'title',
  'metadata',
  'lyrics',
  'notes',
  'comment',
  'todo',
  'reference',
] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/**
 * One searchable source: the indexed text expression (it must be written exactly as in the GIN index of
 * migration 0008 for the index to be used), the track it belongs to, and how much a match there weighs.
 */
type Source = { field: SearchField; weight: number; from: SQL; text: SQL; trackId: SQL; content?: SQL };

const SOURCES: Source[] = [
  { field: 'title', weight: 1, from: sql`tracks s`, text: sql`s.title`, trackId: sql`s.id` },
  {
    field: 'metadata',
    weight: 0.7,
    from: sql`tracks s`,
    text: sql`tmw_track_metadata(s.artist, s.genre, s.tags, s.musical_key, s.language, s.isrc, s.label, s.distributor)`,
    trackId: sql`s.id`,
  },
  { field: 'lyrics', weight: 0.5, from: sql`tracks s`, text: sql`s.lyrics`, trackId: sql`s.id` },
  { field: 'notes', weight: 0.5, from: sql`tracks s`, text: sql`s.notes`, trackId: sql`s.id` },
  {
    field: 'comment',
    weight: 0.4,
    from: sql`version_comments s join track_versions v on v.id = s.version_id`,
    text: sql`s.body`,
    trackId: sql`v.track_id`,
  },
  {
    field: 'todo',
    weight: 0.4,
    from: sql`version_todos s join track_versions v on v.id = s.version_id`,
    text: sql`s.text`,
    trackId: sql`v.track_id`,
  },
  {
    field: 'reference',
    weight: 0.3,
    from: sql`track_links s`,
    text: sql`regexp_replace(s.url, '[^[:alnum:]]+', ' ', 'g') || ' ' || coalesce(s.platform, '')`,
    content: sql`s.url`,
    trackId: sql`s.track_id`,
  },
];

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
 * The best hit of each live track the team holds that matches `prefixQuery` (a to_tsquery text of
 * `term:*` parts; folded here the way the indexes fold), best first.
 */
export async function searchTracks(db: Db, teamId: number, prefixQuery: string, limit: number) {
  const query = sql`to_tsquery('simple'::regconfig, tmw_fold(${prefixQuery}))`;
  const branches = SOURCES.map(
    (
      s,
    ) => sql`select ${s.trackId} as track_id, ${s.field}::text as field, (${s.content ?? s.text})::text as content,
      ts_rank(tmw_search_vector(${s.text}), ${query}) * ${s.weight}::float8 as rank
      from ${s.from} where tmw_search_vector(${s.text}) @@ ${query}`,
  );
  const hits = sql`(select distinct on (hit.track_id) hit.track_id, hit.field, hit.content, hit.rank,
      t.title, t.artist, t.status_id, t.team_id
    from (${sql.join(branches, sql` union all `)}) hit
    join track_teams tt on tt.track_id = hit.track_id and tt.team_id = ${teamId}
    join tracks t on t.id = hit.track_id and t.deleted_at is null
    order by hit.track_id, hit.rank desc) best`;
  return db
    .select({
      trackId: sql<number>`best.track_id`.mapWith(Number),
      field: sql<SearchField>`best.field`,
      content: sql<string>`best.content`,
      rank: sql<number>`best.rank`.mapWith(Number),
      title: sql<string>`best.title`,
      artist: sql<string | null>`best.artist`,
      statusId: sql<string>`best.status_id`,
      teamId: sql<number>`best.team_id`.mapWith(Number),
    })
    .from(hits)
    .orderBy(sql`best.rank desc, best.track_id`)
    .limit(limit);
}
