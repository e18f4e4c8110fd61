import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { App } from '../../src/app-types.ts';
import type { TeamRole } from '../../src/db/schema/index.ts';
import { teamMembers, trackVersions } from '../../src/db/schema/index.ts';
import { insertTeamWithOwner } from '../../src/modules/teams/teams.repository.ts';
import { insertTrackWithVersion } from '../../src/modules/tracks/tracks.repository.ts';
import type { Scope } from '../../src/plugins/auth.ts';

export type TestUser = { id: string; email: string; password: string; token: string; refreshToken: string };
export type TestTeam = {
  id: number;
  name: string;
  owner: TestUser;
  /** Teams each track `newTrack` makes for this team is shared with at once (by `owner`, through the API). */
  shareWith?: number[];
};
export type TestTrack = { id: number; teamId: number; versionId: number; title: string };

type Base = {
  app: App;
  request(options: InjectOptions & { token?: string | undefined }): Promise<LightMyRequestResponse>;
};

let sequence = 0;
const unique = () =>
  `${Date.now().toString(36)}${(sequence++).toString(36)}${randomBytes(2).toString('hex')}`;

/** Factories that go through the public API where one exists, so tests build data the way clients do. */
export function makeFactories({ app, request }: Base) {
  async function newUser(
    overrides: { email?: string; password?: string; name?: string } = {},
  ): Promise<TestUser> {
    const email = overrides.email ?? `user-${unique()}@example.test`;
    const password = overrides.password ?? `pw-${unique()}-secret`;
    const res = await request({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email, password, ...(overrides.name ? { name: overrides.name } : {}) },
    });
    if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
    const body = res.json();
    return { id: body.user.id, email, password, token: body.access_token, refreshToken: body.refresh_token };
  }

  async function newTeam(owner?: TestUser, name = `Team ${unique()}`): Promise<TestTeam> {
    const user = owner ?? (await newUser());
    const team = await insertTeamWithOwner(app.deps.database.db, { name, ownerId: user.id });
    return { id: team.id, name: team.name, owner: user };
  }

  /** Adds a user to a team with a role (directly: the invite flow has its own tests). */
  async function addMember(team: TestTeam, role: TeamRole = 'member', user?: TestUser): Promise<TestUser> {
    const member = user ?? (await newUser());
    await app.deps.database.db.insert(teamMembers).values({ teamId: team.id, userId: member.id, role });
    return member;
  }

  async function newApiKey(team: TestTeam, scopes: Scope[] = []): Promise<string> {
    const res = await request({
      method: 'POST',
      url: `/api/v1/teams/${team.id}/api-keys`,
      token: team.owner.token,
      payload: { name: `key ${unique()}`, scopes },
    });
    if (res.statusCode !== 201) throw new Error(`api key failed: ${res.statusCode} ${res.body}`);
    return res.json().key;
  }

  /** A track in the team's first status with its first version, created by the team's owner. */
  async function newTrack(
    team: TestTeam,
    overrides: { title?: string; statusId?: string; audioFileName?: string } = {},
  ): Promise<TestTrack> {
    const title = overrides.title ?? `Track ${unique()}`;
    const db = app.deps.database.db;
    const { track, version } = await db.transaction((tx) =>
      insertTrackWithVersion(
        tx,
        {
          teamId: team.id,
          statusId: overrides.statusId ?? 'idea',
          title,
          audioFileName: overrides.audioFileName ?? 'demo.wav',
          now: new Date(),
        },
        { actorUserId: team.owner.id, actorKeyId: null },
      ),
    );
    for (const teamId of team.shareWith ?? []) await shareTrack(track.id, teamId, team.owner.token);
    return { id: track.id, teamId: team.id, versionId: version.id, title };
  }

  /** Shares a track with another team through the API, as `token` (an owner or admin of both teams). */
  async function shareTrack(trackId: number, teamId: number, token: string): Promise<void> {
    const res = await request({
      method: 'POST',
      url: `/api/v1/tracks/${trackId}/teams`,
      token,
      payload: { teamId },
    });
    if (res.statusCode !== 200) throw new Error(`share failed: ${res.statusCode} ${res.body}`);
  }

  /** Another version of a track, at the end of its list. */
  async function newVersion(
    track: TestTrack,
    overrides: { name?: string; durationSeconds?: number } = {},
  ): Promise<{ id: number; name: string }> {
    const db = app.deps.database.db;
    const [row] = await db
      .insert(trackVersions)
      .values({
        trackId: track.id,
        position: sql<number>`(select coalesce(max(position) + 1, 0) from track_versions where track_id = ${track.id})`,
        name: overrides.name ?? `Version ${unique()}`,
        audioFileName: 'take.wav',
        durationSeconds: overrides.durationSeconds ?? null,
      })
      .returning();
    return { id: row!.id, name: row!.name };
  }

  return { newUser, newTeam, addMember, newApiKey, newTrack, shareTrack, newVersion, unique };
}
