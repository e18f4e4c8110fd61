import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import {
  describeSecurityMatrix,
  expectAreaAuthClasses,
  type MatrixCase,
} from '../../../test/helpers/security-matrix.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { teams } from '../../db/schema/index.ts';
import { FlagsService } from './flags.service.ts';

const ctx = useTestContext({
  env: { FEATURE_FLAGS: 'newEditor=true, legacyExport=FALSE,stemSplitter=pro|label ' },
});

const cases: MatrixCase[] = [
  { method: 'GET', path: '/api/v1/flags', teamScoped: false, build: () => ({ url: '/api/v1/flags/' }) },
];

const flagsOf = async (token: string) => {
  const res = await ctx.request({ method: 'GET', url: '/api/v1/flags', token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().flags;
};

const movePlan = (team: TestTeam, planId: string) =>
  ctx.database.db.update(teams).set({ planId }).where(eq(teams.id, team.id));

describe('GET /api/v1/flags', () => {
  it('answers every configured flag; plan flags follow the best plan among the caller’s teams', async () => {
    const loner = await ctx.newUser();
    expect(await flagsOf(loner.token)).toEqual({ newEditor: true, legacyExport: false, stemSplitter: false });

    const free = await ctx.newTeam();
    const member = await ctx.addMember(free, 'member');
    expect((await flagsOf(member.token)).stemSplitter).toBe(false);

    const pro = await ctx.newTeam();
    await movePlan(pro, 'pro');
    await ctx.addMember(pro, 'member', member);
    expect(await flagsOf(member.token)).toEqual({ newEditor: true, legacyExport: false, stemSplitter: true });
    expect((await flagsOf(free.owner.token)).stemSplitter).toBe(false);

    await movePlan(pro, 'enterprise');
    expect((await flagsOf(member.token)).stemSplitter).toBe(false);
  });

  it('answers an empty object when no flag is configured', async () => {
    const user = await ctx.newUser();
    const principal = { type: 'session', userId: user.id, sessionId: 'unused' } as const;
    expect(await new FlagsService(ctx.database.db, []).forCaller(principal)).toEqual({ flags: {} });
  });

  it('is session-only (S)', async () => {
    await expectAreaAuthClasses(
      ctx,
      (r) => r.operationId.startsWith('flags.'),
      { 'GET /api/v1/flags': { auth: 'session', extension: false } },
      cases,
    );
  });
});

describe('FEATURE_FLAGS', () => {
  it('names every entry that is not name=true|false|plans', () => {
    let problems: string[] = [];
    try {
      loadConfig({
        NODE_ENV: 'test',
        FEATURE_FLAGS: 'ok=true,9lives=true,noValue,twice=true,twice=false,a=b=c,weird=Pro Plan,,empty=',
      });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems = error.problems;
    }
    expect(problems).toEqual([
      expect.stringMatching(/"9lives=true" needs a name/),
      expect.stringMatching(/"noValue" must read name=true/),
      expect.stringMatching(/"twice=false" names twice a second time/),
      expect.stringMatching(/"a=b=c" must read/),
      expect.stringMatching(/"weird=Pro Plan" must be true, false or plan ids/),
      expect.stringMatching(/"empty=" must read/),
    ]);
  });
});

describeSecurityMatrix(ctx, cases);
