import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useServerPair } from '../../../test/helpers/server-pair.ts';
import type { ServerProcess } from '../../../test/helpers/server-process.ts';

const ROUNDS = 10;
// Starting two processes on a loaded machine can take many seconds each.
const TIMEOUT_MS = 180_000;

describe.skipIf(!process.env.DATABASE_URL)('Idempotency-Key across two processes', () => {
  const pair = useServerPair(TIMEOUT_MS);

  async function post(
    server: ServerProcess,
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ) {
    const res = await fetch(`${server.url}/api/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: await res.text() };
  }

  it(
    'runs a key sent to both processes at once exactly once, and both answer the same',
    async () => {
      const { a, b } = pair();
      const signup = await post(a, '/auth/signup', {
        email: `two-${randomBytes(4).toString('hex')}@example.test`,
        password: 'correct horse battery staple',
      });
      expect(signup.status).toBe(201);
      const authorization = `Bearer ${JSON.parse(signup.body).access_token}`;
      const team = await post(a, '/teams', { name: 'Two processes' }, { authorization });
      expect(team.status).toBe(201);
      const teamId = JSON.parse(team.body).id as number;

      for (let round = 0; round < ROUNDS; round++) {
        const headers = { authorization, 'idempotency-key': `both-at-once-${round}` };
        const body = { title: `Album ${round}`, teamId };
        const answers = await Promise.all([
          post(a, '/albums', body, headers),
          post(b, '/albums', body, headers),
        ]);
        expect(answers.map((res) => res.status)).toEqual([201, 201]);
        expect(answers[0]!.body).toBe(answers[1]!.body);
        expect(answers.filter((res) => res.replayed === 'true')).toHaveLength(1);
        expect(answers.filter((res) => res.replayed === null)).toHaveLength(1);
      }

      const list = await fetch(`${b.url}/api/v1/albums?teamId=${teamId}&limit=200`, {
        headers: { authorization },
      });
      const titles = ((await list.json()) as { items: { title: string }[] }).items.map(
        (album) => album.title,
      );
      expect(titles.sort()).toEqual(Array.from({ length: ROUNDS }, (_, round) => `Album ${round}`).sort());
    },
    TIMEOUT_MS,
  );
});
