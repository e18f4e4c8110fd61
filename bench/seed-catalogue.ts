import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.ts';
import { DEFAULT_STATUS_CONFIG } from '../src/modules/teams/default-status-config.ts';

/**
 * Words of the seeded catalogue, most frequent first: picks are skewed towards the start of the list
 * (`love` is in most lyrics, the last words in almost none), so searches can probe both ends.
 */
const WORDS = (
  'love night heart baby dance fire light dream time world summer rain city road home ' +
  'gold river ocean shadow thunder silver morning highway midnight neon velvet crystal ' +
  'echo horizon ember lantern meadow saffron harbor glacier canyon prairie orchard ' +
  'tundra lagoon mirage nebula quasar zephyr marigold obsidian juniper tamarind'
).split(' ');
const GENRES = ['pop', 'rock', 'hip hop', 'reggaeton', 'jazz', 'house', 'techno', 'folk', 'soul', 'indie'];
const LANGUAGES = ['en', 'es', 'pt', 'fr', 'de'];

const words = sql`${`{${WORDS.join(',')}}`}::text[]`;
/** One word of the catalogue, as SQL: power(random(), 3) makes early words far more likely than late ones. */
const word = sql`(${words})[1 + floor(power(random(), 3) * ${WORDS.length})::int]`;

/**
 * `count` words of the catalogue as SQL; the reference to the outer column `outer` makes the subquery run once
 * per row instead of once per statement.
 */
export const phrase = (count: number, outer: string) =>
  sql`(select string_agg(${word}, ' ') from generate_series(1, ${count}) w where w > 0 * ${sql.raw(outer)})`;

export type SeededCatalogue = { teamIds: number[]; trackIds: number[] };

/**
 * Seeds `teams` teams owned by `ownerId`, each holding `tracksPerTeam` tracks with one version, a
 * comment on every fourth and a to-do on every tenth, all in bulk SQL.
 */
export async function seedCatalogue(
  db: Db,
  options: { ownerId: string; teams: number; tracksPerTeam: number },
): Promise<SeededCatalogue> {
  const { ownerId, teams, tracksPerTeam } = options;

  await db.execute(sql`select setseed(0.42)`);
  const teamRows = await db.execute<{ id: number }>(sql`
    insert into teams (name, slug, plan_id, status_config, created_by)
    select 'Bench team ' || g, 'bench-' || ${Date.now().toString(36)} || '-' || g, 'enterprise',
      ${JSON.stringify(DEFAULT_STATUS_CONFIG)}::jsonb, ${ownerId}::uuid
    from generate_series(1, ${teams}) g
    returning id`);
  const teamIds = rowsOf<{ id: number }>(teamRows).map((r) => Number(r.id));
  await db.execute(sql`
    insert into team_members (team_id, user_id, role)
    select id, ${ownerId}::uuid, 'owner' from unnest(${`{${teamIds.join(',')}}`}::int[]) id`);

  const trackRows = await db.execute<{ id: number }>(sql`
    insert into tracks (team_id, status_id, position, title, artist, genre, tags, language, bpm, lyrics,
      notes, created_by)
    select team.id, 'idea', g,
      initcap(${phrase(3, 'g')}),
      'Artist ' || (1 + floor(random() * 500)::int),
      (${`{${GENRES.join(',')}}`}::text[])[1 + floor(random() * ${GENRES.length})::int],
      array[${word}, ${word}],
      (${`{${LANGUAGES.join(',')}}`}::text[])[1 + floor(random() * ${LANGUAGES.length})::int],
      70 + floor(random() * 100),
      ${phrase(60, 'g')},
      ${phrase(8, 'g')},
      ${ownerId}::uuid
    from unnest(${`{${teamIds.join(',')}}`}::int[]) team(id), generate_series(1, ${tracksPerTeam}) g
    returning id`);
  const trackIds = rowsOf<{ id: number }>(trackRows).map((r) => Number(r.id));
  await db.execute(sql`
    insert into track_teams (track_id, team_id, owner) select id, team_id, true from tracks
    where id between ${trackIds[0]} and ${trackIds.at(-1)}`);
  await db.execute(sql`
    insert into track_versions (track_id, position, name, audio_file_name, is_final)
    select id, 1, 'v1', 'mix.wav', true from tracks where id between ${trackIds[0]} and ${trackIds.at(-1)}`);
  await db.execute(sql`
    insert into version_comments (version_id, body, created_by)
    select v.id, ${phrase(12, 'v.id')}, ${ownerId}::uuid
    from track_versions v
    where v.track_id between ${trackIds[0]} and ${trackIds.at(-1)} and v.track_id % 4 = 0`);
  await db.execute(sql`
    insert into version_todos (version_id, text, created_by)
    select v.id, ${phrase(6, 'v.id')}, ${ownerId}::uuid
    from track_versions v
    where v.track_id between ${trackIds[0]} and ${trackIds.at(-1)} and v.track_id % 10 = 0`);
  // As autovacuum leaves a table in service: statistics, and a visibility map for index-only scans.
  await db.execute(sql`vacuum analyze`);
  return { teamIds, trackIds };
}

/** PGlite answers `{rows}`, postgres.js an array of rows. */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}
