import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useServerPair } from '../../../test/helpers/server-pair.ts';
import type { ServerProcess } from '../../../test/helpers/server-process.ts';
import { teams } from '../../db/schema/index.ts';
import { insertTrackWithVersion } from '../tracks/tracks.repository.ts';

const ROUNDS = 1000;
const LANES = 4;
const TIMEOUT_MS = 300_000;

describe.skipIf(!process.env.DATABASE_URL)('revocation across two processes', () => {
  // A thousand rounds of one person's requests in well under a minute: past the default per-person budget.
  const pair = useServerPair(TIMEOUT_MS, { SESSION_RATE_LIMIT_PER_MINUTE: '1000000' });

  async function call(server: ServerProcess, method: string, path: string, token?: string, body?: unknown) {
    const res = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.text()) as string };
  }

  it(
    `a session logged out and a key revoked in one process are refused by the other at once, ${ROUNDS} times over`,
    async () => {
      const { a, b, database } = pair();
      const credentials = {
        email: `revoke-${randomBytes(4).toString('hex')}@example.test`,
        password: 'pw-revoke-secret',
      };
      const signup = await call(a, 'POST', '/auth/signup', undefined, credentials);
      expect(signup.status).toBe(201);
      const { access_token: owner, user } = JSON.parse(signup.body) as {
        access_token: string;
        user: { id: string };
      };
      const created = await call(a, 'POST', '/teams', owner, { name: 'Revocations' });
      expect(created.status).toBe(201);
      const teamId = (JSON.parse(created.body) as { id: number }).id;
      // Thousands of key requests: a free plan would answer 429 long before the end.
      await database.db.update(teams).set({ planId: 'enterprise' }).where(eq(teams.id, teamId));
      const { track } = await database.db.transaction((tx) =>
        insertTrackWithVersion(
          tx,
          { teamId, statusId: 'idea', title: 'Read by B', audioFileName: 'demo.wav', now: new Date() },
          { actorUserId: user.id, actorKeyId: null },
        ),
      );
      const read = (token: string) => call(b, 'GET', `/tracks/${track.id}`, token);

      let successesAfterRevoke = 0;
      const answersDuring = new Set<number>();
      const round = async (n: number) => {
        const login = await call(a, 'POST', '/auth/login', undefined, credentials);
        expect(login.status).toBe(200);
        const session = (JSON.parse(login.body) as { access_token: string }).access_token;
        const key = await call(a, 'POST', `/teams/${teamId}/api-keys`, session, {
          name: `round ${n}`,
          scopes: [],
        });
        expect(key.status).toBe(201);
        const { id, key: rawKey } = JSON.parse(key.body) as { id: number; key: string };
        expect((await read(session)).status).toBe(200);
        expect((await read(rawKey)).status).toBe(200);
        // B serves both while the revocations are under way, and each once more after they answered.
        const during = [read(session), read(rawKey), read(session), read(rawKey)];
        const [loggedOut, revoked] = await Promise.all([
          call(a, 'POST', '/auth/logout', session),
          call(a, 'DELETE', `/teams/${teamId}/api-keys/${id}`, owner),
        ]);
        expect([loggedOut.status, revoked.status]).toEqual([204, 204]);
        const after = await Promise.all([read(session), read(rawKey)]);
        successesAfterRevoke += after.filter((res) => res.status !== 401).length;
        for (const res of await Promise.all(during)) answersDuring.add(res.status);
      };
      // Rounds run in a few lanes at once: each round is still sequential, and rounds of other lanes add load.
      await Promise.all(
        Array.from({ length: LANES }, async (_, lane) => {
          for (let n = lane; n < ROUNDS; n += LANES) await round(n);
        }),
      );
      expect(successesAfterRevoke).toBe(0);
      expect([...answersDuring].every((status) => status === 200 || status === 401)).toBe(true);
    },
    TIMEOUT_MS,
  );
});
