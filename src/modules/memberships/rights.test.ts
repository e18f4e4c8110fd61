import { describe, expect, it } from 'vitest';
import { type TestTeam, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { openSse } from '../chat/fixtures/sse-client.ts';
import { organisationHelpers } from '../organisations/organisations.test-support.ts';
import { sessionHelpers } from '../sessions/sessions.test-support.ts';
import { RIGHTS, type RightEnding, type RightId } from './rights.ts';

const ctx = useTestContext();
const { newSession } = sessionHelpers(ctx);
const { organisationWithTeam, addOrganisationMember, inviteToOrganisation } = organisationHelpers(ctx);

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, token: string, payload?: object) =>
  ctx.request({ method, url, token, ...(payload ? { payload } : {}) });
async function ok(method: Method, url: string, token: string, payload?: object) {
  const res = await call(method, url, token, payload);
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.statusCode === 204 ? null : res.json();
}

const removeMember = (team: TestTeam, user: TestUser) =>
  ok('DELETE', `/api/v1/teams/${team.id}/members/${user.id}`, team.owner.token);
const demote = (team: TestTeam, user: TestUser) =>
  ok('PATCH', `/api/v1/teams/${team.id}/members/${user.id}`, team.owner.token, { role: 'member' });
/** The ending of an admin's right by a person: removed from the team, or demoted to member. */
const endAdmin = { removed: removeMember, demoted: demote };

async function keyBy(team: TestTeam, admin: TestUser, scopes: string[]) {
  return (await ok('POST', `/api/v1/teams/${team.id}/api-keys`, admin.token, { name: 'k', scopes })) as {
    id: number;
    key: string;
  };
}
const revokeKey = (team: TestTeam, keyId: number) =>
  ok('DELETE', `/api/v1/teams/${team.id}/api-keys/${keyId}`, team.owner.token);

async function endpointOf(team: TestTeam, id: number) {
  const list = await ok('GET', `/api/v1/webhooks/?teamId=${team.id}`, team.owner.token);
  return (list.items as { id: number; enabled: boolean; pausedReason: string | null }[]).find(
    (e) => e.id === id,
  );
}
const registerEndpoint = (team: TestTeam, token: string) =>
  ok('POST', '/api/v1/webhooks/', token, { url: 'https://hooks.example.com/in', teamId: team.id });

type Proof = () => Promise<void>;

/**
 * Proofs for an admin who is removed and for one who is demoted: `proof` gets a team, its admin, and ends the
 * admin's role with the `end` it is given when the right is in place.
 */
const forEndedAdmin = (
  proof: (team: TestTeam, admin: TestUser, end: () => Promise<unknown>) => Promise<void>,
): Partial<Record<RightEnding, Proof>> =>
  Object.fromEntries(
    (['removed', 'demoted'] as const).map((ending) => [
      ending,
      async () => {
        const team = await ctx.newTeam();
        const admin = await ctx.addMember(team, 'admin');
        await proof(team, admin, () => endAdmin[ending](team, admin));
      },
    ]),
  );

/** How each row's ending is proved, for a former member, a demoted admin and a revoked key. */
const PROOFS: Record<RightId, Partial<Record<RightEnding, Proof>>> = {
  api_keys: {
    ...forEndedAdmin(async (team, admin, end) => {
      const { key } = await keyBy(team, admin, []);
      expect((await call('GET', '/api/v1/webhooks/', key)).statusCode).toBe(200);
      await end();
      expect((await call('GET', '/api/v1/webhooks/', key)).statusCode).toBe(401);
    }),
    key_revoked: async () => {
      const team = await ctx.newTeam();
      const { id, key } = await keyBy(team, team.owner, []);
      await revokeKey(team, id);
      expect((await call('GET', '/api/v1/webhooks/', key)).statusCode).toBe(401);
    },
  },
  webhook_endpoints: {
    ...forEndedAdmin(async (team, admin, end) => {
      const { id } = await registerEndpoint(team, admin.token);
      await end();
      expect(await endpointOf(team, id)).toMatchObject({ enabled: false, pausedReason: expect.any(String) });
    }),
    key_revoked: async () => {
      const team = await ctx.newTeam();
      const { id: keyId, key } = await keyBy(team, team.owner, ['webhooks:write']);
      const { id } = await registerEndpoint(team, key);
      await revokeKey(team, keyId);
      expect(await endpointOf(team, id)).toMatchObject({ enabled: false, pausedReason: 'key_revoked' });
    },
  },
  session_join_links: {
    removed: async () => {
      const team = await ctx.newTeam();
      const member = await ctx.addMember(team);
      const { id } = await newSession(team);
      const { token } = await ok('GET', `/api/v1/sessions/${id}/invite-url?teamId=${team.id}`, member.token);
      await removeMember(team, member);
      expect((await call('POST', `/api/v1/session-links/${token}/join`, member.token)).statusCode).toBe(404);
    },
  },
  calendar_feeds: {
    removed: async () => {
      const team = await ctx.newTeam();
      const member = await ctx.addMember(team);
      const { id } = await newSession(team);
      const { icsUrl } = await ok('GET', `/api/v1/sessions/${id}/follow?teamId=${team.id}`, member.token);
      const feed = () => ctx.request({ method: 'GET', url: new URL(icsUrl).pathname });
      expect((await feed()).statusCode).toBe(200);
      await removeMember(team, member);
      await ctx.addMember(team, 'member', member);
      expect((await feed()).statusCode).toBe(404);
    },
  },
  event_streams: {
    removed: async () => {
      const team = await ctx.newTeam();
      const member = await ctx.addMember(team);
      const thread = await ok('POST', '/api/v1/chat/threads/', team.owner.token, {
        type: 'team',
        teamIds: [team.id],
        name: 'general',
      });
      const base = `${await ctx.app.listen({ port: 0, host: '127.0.0.1' })}/api/v1/chat/events`;
      // The listening server closes with the app, after the file's tests.
      const theirs = await openSse(base, member.token);
      const owners = await openSse(base, team.owner.token);
      try {
        const post = (content: string) =>
          ok('POST', `/api/v1/chat/threads/${thread.id}/messages`, team.owner.token, { content });
        const got = (content: string) => (e: { event?: string; data?: string }) =>
          e.event === 'message.created' && (e.data ?? '').includes(content);
        await post('before');
        await theirs.next(got('before'));
        await removeMember(team, member);
        await post('after');
        // Every open stream of the process is served in the same dispatch: once the owner has it, so would they.
        await owners.next(got('after'));
        expect(theirs.events().map((e) => JSON.stringify(e.body))).not.toContainEqual(
          expect.stringContaining('after'),
        );
      } finally {
        theirs.close();
        owners.close();
      }
    },
  },
  track_shares: {
    removed: async () => {
      const owning = await ctx.newTeam();
      const shared = await ctx.newTeam(owning.owner);
      const member = await ctx.addMember(shared);
      const track = await ctx.newTrack({ ...owning, shareWith: [shared.id] });
      expect((await call('GET', `/api/v1/tracks/${track.id}`, member.token)).statusCode).toBe(200);
      await removeMember(shared, member);
      expect((await call('GET', `/api/v1/tracks/${track.id}`, member.token)).statusCode).toBe(404);
    },
    key_revoked: async () => {
      const owning = await ctx.newTeam();
      const shared = await ctx.newTeam(owning.owner);
      const track = await ctx.newTrack({ ...owning, shareWith: [shared.id] });
      const { id, key } = await keyBy(shared, shared.owner, []);
      expect((await call('GET', `/api/v1/tracks/${track.id}`, key)).statusCode).toBe(200);
      await revokeKey(shared, id);
      expect((await call('GET', `/api/v1/tracks/${track.id}`, key)).statusCode).toBe(401);
    },
  },
  team_invites: forEndedAdmin(async (team, admin, end) => {
    const invitee = await ctx.newUser();
    const invite = await ok('POST', `/api/v1/teams/${team.id}/invites`, admin.token, {
      email: invitee.email,
    });
    await end();
    const listed = await ok('GET', `/api/v1/teams/${team.id}/invites`, team.owner.token);
    expect(listed.items.map((i: { id: number }) => i.id)).not.toContain(invite.id);
    const accepted = await call('POST', `/api/v1/invites/${invite.token}/accept`, invitee.token);
    expect(accepted.statusCode).toBeGreaterThanOrEqual(400);
    expect(accepted.statusCode).toBeLessThan(500);
  }),
  organisation_roles: {
    removed: async () => {
      const { organisation } = await organisationWithTeam();
      const admin = await addOrganisationMember(organisation, 'admin');
      const url = `/api/v1/organisations/${organisation.id}`;
      expect((await call('GET', url, admin.token)).statusCode).toBe(200);
      await ok('DELETE', `${url}/members/${admin.id}`, organisation.owner.token);
      expect((await call('GET', url, admin.token)).statusCode).toBe(404);
    },
    demoted: async () => {
      const { organisation } = await organisationWithTeam();
      const admin = await addOrganisationMember(organisation, 'admin');
      const url = `/api/v1/organisations/${organisation.id}`;
      const build = (name: string) => call('POST', `${url}/buildings`, admin.token, { name });
      expect((await build('North')).statusCode).toBe(201);
      await ok('PATCH', `${url}/members/${admin.id}`, organisation.owner.token, { role: 'member' });
      expect((await build('South')).statusCode).toBe(403);
    },
  },
  organisation_invitations: Object.fromEntries(
    (['removed', 'demoted'] as const).map((ending) => [
      ending,
      async () => {
        const { organisation } = await organisationWithTeam();
        const admin = await addOrganisationMember(organisation, 'admin');
        const invitee = await ctx.newUser();
        const url = `/api/v1/organisations/${organisation.id}`;
        const { token } = await inviteToOrganisation(
          organisation,
          { userId: invitee.id },
          'member',
          admin.token,
        );
        if (ending === 'removed') await ok('DELETE', `${url}/members/${admin.id}`, organisation.owner.token);
        else await ok('PATCH', `${url}/members/${admin.id}`, organisation.owner.token, { role: 'member' });
        const accepted = await call(
          'POST',
          `/api/v1/organisation-invitations/${token}/accept`,
          invitee.token,
        );
        expect(accepted.statusCode).toBe(409);
        expect((await call('GET', url, invitee.token)).statusCode).toBe(404);
      },
    ]),
  ),
  pending_reviews: {
    removed: async () => {
      const team = await ctx.newTeam();
      const member = await ctx.addMember(team);
      const track = await ctx.newTrack(team);
      await ok(
        'POST',
        `/api/v1/tracks/${track.id}/versions/${track.versionId}/review/request`,
        team.owner.token,
        {
          reviewerIds: [member.id],
        },
      );
      const reviews = async () =>
        (await ok('GET', '/api/v1/inbox/', member.token)).items.filter(
          (i: { kind: string }) => i.kind === 'review_request',
        );
      expect(await reviews()).toHaveLength(1);
      await removeMember(team, member);
      await ctx.addMember(team, 'member', member);
      expect(await reviews()).toEqual([]);
    },
  },
  push_notifications: {
    removed: async () => {
      const creator = await ctx.newUser();
      const team = await ctx.newTeam(creator);
      const other = await ctx.addMember(team, 'owner');
      const track = await ctx.newTrack(team);
      await ok('DELETE', `/api/v1/teams/${team.id}/members/${creator.id}`, other.token);
      await ok('POST', `/api/v1/tracks/${track.id}/versions/${track.versionId}/comments`, other.token, {
        comment: 'after they left',
      });
      const feed = await ok('GET', '/api/v1/user/notification-feed', creator.token);
      expect(feed.items).toEqual([]);
    },
  },
  session_participation: {
    removed: async () => {
      const team = await ctx.newTeam();
      const member = await ctx.addMember(team);
      const { id } = await newSession(team);
      await ok('POST', `/api/v1/sessions/${id}/participants`, team.owner.token, {
        teamId: team.id,
        userId: member.id,
      });
      await removeMember(team, member);
      expect((await call('GET', `/api/v1/sessions/${id}?teamId=${team.id}`, member.token)).statusCode).toBe(
        404,
      );
    },
  },
};

/** The endings proved here; leaving and account deletion take the same paths (Departures), tested by area. */
const PROVED: readonly RightEnding[] = ['removed', 'demoted', 'key_revoked'];

describe('every right that comes from a membership, a role or a key ends with it', () => {
  for (const right of RIGHTS) {
    for (const ending of PROVED) {
      if (right.on[ending] !== 'ends') continue;
      it(`${right.id}: ends when ${ending.replace('_', ' ')}`, async () => {
        const proof = PROOFS[right.id][ending];
        expect(proof, `no proof of ${right.id} / ${ending} in rights.test.ts`).toBeDefined();
        await proof!();
      });
    }
  }
});
