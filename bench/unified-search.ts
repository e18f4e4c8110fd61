import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import type { Scenario } from './scenario.ts';
import { phrase } from './seed-catalogue.ts';

/**
 * Adds what the one search reads beyond tracks to every team of the seeded catalogue, in bulk SQL: a team
 * chat thread of 50 messages (every tenth a transcribed voice note), 20 contacts, 5 albums, 5 studio sessions
 * and 2 interviews per team. Run it before the server starts (the embedded database is one process's).
 */
export async function seedSearchCatalogue(env: Record<string, string>) {
  const config = loadConfig({ ...process.env, ...env });
  const database = await openDatabase(config);
  const db = database.db;
  const teams = sql`(select id, created_by from teams where name like 'Bench team %')`;
  try {
    const started = Date.now();
    await db.execute(sql`select setseed(0.24)`);
    await db.execute(sql`
      insert into chat_threads (id, type, name, created_by, activity_at)
      select gen_random_uuid(), 'team', 'Team ' || t.id, t.created_by, now() from ${teams} t`);
    await db.execute(sql`
      insert into chat_thread_teams (thread_id, team_id)
      select th.id, substr(th.name, 6)::int from chat_threads th
      where th.name like 'Team %' and th.created_by in (select created_by from ${teams} t)`);
    await db.execute(sql`
      insert into chat_messages (id, thread_id, author_id, content, created_at, transcript_status, transcript)
      select gen_random_uuid(), ct.thread_id, th.created_by, ${phrase(10, 'g')}, now() - g * interval '1 minute',
        case when g % 10 = 0 then 'done' end, case when g % 10 = 0 then ${phrase(15, 'g')} end
      from chat_thread_teams ct join chat_threads th on th.id = ct.thread_id
        join ${teams} t on t.id = ct.team_id, generate_series(1, 50) g`);
    await db.execute(sql`
      insert into contacts (team_id, name, company, notes, created_by)
      select t.id, initcap(${phrase(2, 'g')}), initcap(${phrase(1, 'g')}), ${phrase(10, 'g')}, t.created_by
      from ${teams} t, generate_series(1, 20) g`);
    await db.execute(sql`
      insert into albums (team_id, status_id, position, title, artist, notes, created_by)
      select t.id, 'idea', g, initcap(${phrase(2, 'g')}), 'Artist ' || g, ${phrase(8, 'g')}, t.created_by
      from ${teams} t, generate_series(1, 5) g`);
    await db.execute(sql`
      insert into studio_sessions (team_id, title, starts_at, ends_at, notes, created_by)
      select t.id, initcap(${phrase(3, 'g')}), now() + g * interval '1 day',
        now() + g * interval '1 day' + interval '3 hours', ${phrase(12, 'g')}, t.created_by
      from ${teams} t, generate_series(1, 5) g`);
    await db.execute(sql`
      insert into interviews (team_id, title, slug, intro, created_by)
      select t.id, initcap(${phrase(4, 'g')}), 'interview-' || g, ${phrase(30, 'g')}, t.created_by
      from ${teams} t, generate_series(1, 2) g`);
    await db.execute(sql`vacuum analyze`);
    process.stdout.write(
      `seeded chat, contacts, albums, sessions and interviews in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
    );
  } finally {
    await database.close();
  }
}

/** The one search over everything of the caller's teams, for a very common and a rare word. */
export function unifiedSearchScenarios(seeded: { teamId: number; total: number }): Scenario[] {
  const n = `${seeded.total / 1000}k`;
  const search = (q: string, team = '') => `/api/v1/search?q=${q}&limit=20${team}`;
  return [
    { name: `one search, common word (of ${n})`, ceiling: 'page', path: search('love') },
    { name: `one search, rare word (of ${n})`, ceiling: 'page', path: search('zephyr') },
    {
      name: `one search, one team, two words (of ${n})`,
      ceiling: 'page',
      path: search('night%20ri', `&teamId=${seeded.teamId}`),
    },
  ];
}
