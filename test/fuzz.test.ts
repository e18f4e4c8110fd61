import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { teams } from '../src/db/schema/index.ts';
import { SCOPES } from '../src/plugins/auth.ts';
import { problemWith } from './fuzz/answer-checks.ts';
import { type OpenApiDocument, operationsOf, requestsFor } from './fuzz/operations.ts';
import { albumHelpers } from './helpers/albums.ts';
import { useTestContext } from './helpers/context.ts';

/**
 * Every documented operation gets generated and mutated path parameters, queries, bodies and content
 * types, as owner, admin, member, API keys, outsider and without a token. No answer may be a 5xx; every
 * 4xx is the error envelope (401 exactly `{"error":"Unauthorized"}`); every JSON 2xx parses.
 * FUZZ_SEED repeats a run; FUZZ_REQUESTS sets its size (`npm run fuzz` runs any number).
 */
const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const total = Number(process.env.FUZZ_REQUESTS ?? 3000);

const ctx = useTestContext();

it(`answers every generated request within the contract (seed ${seed})`, {
  timeout: 30 * 60_000,
}, async () => {
  process.stdout.write(`fuzz: seed ${seed}, ${total} requests (repeat with FUZZ_SEED=${seed})\n`);
  const team = await ctx.newTeam();
  // Keys of a free team would spend the run answering 429.
  await ctx.database.db.update(teams).set({ planId: 'label' }).where(eq(teams.id, team.id));
  const admin = await ctx.addMember(team, 'admin');
  const member = await ctx.addMember(team, 'member');
  const outsider = await ctx.newUser();
  const tracks = [await ctx.newTrack(team), await ctx.newTrack(team)];
  const album = await albumHelpers(ctx).newAlbum(team);
  const principals = [
    team.owner.token,
    admin.token,
    member.token,
    await ctx.newApiKey(team, [...SCOPES]),
    await ctx.newApiKey(team, []),
    outsider.token,
    undefined,
    'garbage',
  ];
  const pools = {
    integers: [...new Set([team.id, album.id, ...tracks.flatMap((t) => [t.id, t.versionId]), 1, 2, 3])],
    uuids: [team.owner.id, member.id, outsider.id, '00000000-0000-7000-8000-000000000000'],
  };

  const document = (
    await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' })
  ).json() as OpenApiDocument;
  const operations = operationsOf(document);
  const perOperation = Math.max(1, Math.ceil(total / operations.length));
  const problems: string[] = [];
  const answers = new Map<number, number>();
  const unauthorized = new Set<string>();
  for (const [index, operation] of operations.entries()) {
    const requests = fc.sample(requestsFor(operation, pools), { seed: seed + index, numRuns: perOperation });
    for (const [n, request] of requests.entries()) {
      const token = principals[n % principals.length];
      const res = await ctx.request({ ...request, method: request.method as 'GET', token });
      answers.set(res.statusCode, (answers.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode === 401) unauthorized.add(operation.operationId);
      const problem = problemWith(operation, res, request.url);
      if (problem)
        problems.push(`${request.method} ${request.url} (principal ${n % principals.length}): ${problem}`);
    }
  }
  const byStatus = [...answers].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
  process.stdout.write(`fuzz: answers ${byStatus.join(', ')}\n`);
  // A fuzzer whose requests all bounce off validation proves little: enough of them must get through.
  const accepted = [...answers].filter(([status]) => status < 300).reduce((n, [, count]) => n + count, 0);
  expect(accepted).toBeGreaterThan(total / 20);
  expect(problems.slice(0, 25), `${problems.length} problems; seed ${seed}`).toEqual([]);

  // What the document promises is produced: every 4xx it lists that a run can provoke at all was answered
  // by some operation, and every operation that lists 401 for a missing token answered it to the run's
  // requests without one.
  const documented = new Set(operations.flatMap((op) => [...op.statuses].filter((s) => s.startsWith('4'))));
  const unproduced = [...documented].filter((s) => !answers.has(Number(s)) && !(s in NEEDS_STATE));
  expect(unproduced, 'documented 4xx statuses no request produced').toEqual([]);
  const tokenless = operations.filter(
    (op) => op.authenticated && op.statuses.has('401') && !unauthorized.has(op.operationId),
  );
  expect(tokenless.map((op) => op.operationId)).toEqual([]);
});

/**
 * Documented statuses a run of independent generated requests cannot provoke, and why; each has tests of
 * its own beside its route or plugin.
 */
const NEEDS_STATE: Record<string, string> = {
  405: 'only the methods the document lists are sent',
  408: 'every request arrives whole at once',
  409: 'a conflict needs an earlier request that made the state it conflicts with',
  410: 'a gone resource needs its earlier removal',
  412: 'a failed precondition needs an earlier version to compare with',
  413: 'generated bodies stay under the size limit',
  414: 'over-long path segments are only sent now and then',
  416: 'a refused range needs stored bytes',
  422: 'content that cannot be processed needs a real upload',
  423: 'a locked resource needs a lock taken first',
  428: 'a missing precondition is only sent now and then',
  429: 'limits are counted per hour, well above a run',
  431: 'generated headers stay small',
};
