import { asc, eq } from 'drizzle-orm';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { teamMembers, tracks } from '../src/db/schema/index.ts';
import { findUserByEmail, insertUser } from '../src/modules/auth/auth.repository.ts';
import type { Scenario } from './scenario.ts';
import { seedCatalogue } from './seed-catalogue.ts';

/**
 * Seeds the catalogue the track scenarios read (BENCH_TEAMS teams of BENCH_TRACKS_PER_TEAM tracks, by
 * default 1,000 x 100) straight into the database, owned by a user of its own, and makes `email` a member
 * of one team in the middle; run it before the server starts, since the embedded database belongs to one
 * process at a time.
 */
export async function seedBenchCatalogue(env: Record<string, string>, email: string) {
  const teams = Number(process.env.BENCH_TEAMS ?? 1000);
  const tracksPerTeam = Number(process.env.BENCH_TRACKS_PER_TEAM ?? 100);
  const config = loadConfig({ ...process.env, ...env });
  const database = await openDatabase(config);
  try {
    const member = await findUserByEmail(database.db, email);
    if (!member) throw new Error(`no user ${email}`);
    const owner = await insertUser(database.db, { email: `catalogue-${Date.now()}@example.test` });
    const started = Date.now();
    const seeded = await seedCatalogue(database.db, { ownerId: owner.id, teams, tracksPerTeam });
    process.stdout.write(
      `seeded ${seeded.trackIds.length} tracks in ${teams} teams in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
    );
    // A team in the middle of the table, and a track in the middle of that team.
    const teamId = seeded.teamIds[Math.floor(teams / 2)]!;
    const [track] = await database.db
      .select({ id: tracks.id })
      .from(tracks)
      .where(eq(tracks.teamId, teamId))
      .orderBy(asc(tracks.id))
      .offset(Math.floor(tracksPerTeam / 2))
      .limit(1);
    const trackId = track!.id;
    await database.db.insert(teamMembers).values({ teamId, userId: member.id, role: 'member' });
    return { teamId, trackId, total: seeded.trackIds.length };
  } finally {
    await database.close();
  }
}

/** GET one track, a page of 50 of a team's tracks, and deep searches for a very common and a rare word. */
export function catalogueScenarios(seeded: { teamId: number; trackId: number; total: number }) {
  const n = `${seeded.total / 1000}k`;
  const search = (q: string) => `/api/v1/tracks/search/deep?teamId=${seeded.teamId}&q=${q}&limit=20`;
  return [
    { name: `track (of ${n})`, ceiling: 'pk', path: `/api/v1/tracks/${seeded.trackId}` },
    {
      name: `50 tracks of a team (of ${n})`,
      ceiling: 'page',
      path: `/api/v1/tracks/?teamId=${seeded.teamId}&limit=50`,
    },
    { name: `deep search, common word (of ${n})`, ceiling: 'page', path: search('love') },
    { name: `deep search, rare word (of ${n})`, ceiling: 'page', path: search('zephyr') },
  ] satisfies Scenario[];
}
