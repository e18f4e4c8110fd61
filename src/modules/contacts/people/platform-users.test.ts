import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { markEmailVerified } from '../../../../test/helpers/account.ts';
import { type TestTeam, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { users } from '../../../db/schema/index.ts';
import { expectValidationPaths } from '../contacts.test-support.ts';
import { LOOKUPS_PER_HOUR } from './platform-users.service.ts';

const ctx = useTestContext();

let team: TestTeam;
let teammate: TestUser;
let elsewhere: TestUser;
let discoverable: TestUser;
let stranger: TestUser;
beforeAll(async () => {
  team = await ctx.newTeam();
  teammate = await ctx.addMember(team, 'member');
  // Shares another team with the owner, not this one.
  elsewhere = await ctx.addMember(await ctx.newTeam(team.owner), 'member');
  discoverable = await ctx.newUser({ name: 'Dee Discoverable' });
  stranger = await ctx.newUser();
  // Addresses name users only once verified (tested below with one that is not).
  for (const user of [teammate, elsewhere, discoverable, stranger]) await markEmailVerified(ctx, user);
  const patched = await ctx.request({
    method: 'PATCH',
    url: '/api/v1/user/preferences',
    token: discoverable.token,
    payload: { discoverable: true },
  });
  expect(patched.json().discoverable).toBe(true);
});

const lookup = (emails: string[], token = team.owner.token, teamId = team.id) =>
  ctx.request({
    method: 'POST',
    url: '/api/v1/contacts/platform-users',
    token,
    payload: { team_id: teamId, emails },
  });

const UNKNOWN = 'nobody-here@example.test';

describe('platform users', () => {
  it('answers which addresses are users the caller may know, in order, hidden and unknown alike', async () => {
    const res = await lookup([
      teammate.email.toUpperCase(),
      elsewhere.email,
      discoverable.email,
      stranger.email,
      UNKNOWN,
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const [mate, other, dee, hidden, unknown] = res.json().results;
    expect(mate).toEqual({
      email: teammate.email.toUpperCase(),
      isPlatformUser: true,
      userId: teammate.id,
      name: null,
    });
    expect(other).toMatchObject({ isPlatformUser: true, userId: elsewhere.id });
    expect(dee).toEqual({
      email: discoverable.email,
      isPlatformUser: true,
      userId: discoverable.id,
      name: 'Dee Discoverable',
    });
    const nobody = { isPlatformUser: false, userId: null, name: null };
    expect(hidden).toEqual({ email: stranger.email, ...nobody });
    expect(unknown).toEqual({ email: UNKNOWN, ...nobody });
  });

  it('lets a key know the members of its own team only, with no write scope needed', async () => {
    const key = await ctx.newApiKey(team, []);
    const res = await lookup([teammate.email, elsewhere.email, discoverable.email, stranger.email], key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results.map((r: { isPlatformUser: boolean }) => r.isPlatformUser)).toEqual([
      true,
      false,
      true,
      false,
    ]);
  });

  it('does not reveal an address that is not verified, even of a teammate (anyone may sign up with it)', async () => {
    const unverified = await ctx.addMember(team, 'member');
    const [found] = (await lookup([unverified.email])).json().results;
    expect(found).toEqual({ email: unverified.email, isPlatformUser: false, userId: null, name: null });
    await markEmailVerified(ctx, unverified);
    const [later] = (await lookup([unverified.email])).json().results;
    expect(later).toMatchObject({ isPlatformUser: true, userId: unverified.id });
  });

  it('stops finding a user who turns discovery off', async () => {
    const shy = await ctx.newUser();
    await markEmailVerified(ctx, shy);
    await ctx.database.db
      .update(users)
      .set({ preferences: { discoverable: true } })
      .where(eq(users.id, shy.id));
    expect((await lookup([shy.email])).json().results[0].isPlatformUser).toBe(true);
    await ctx.database.db
      .update(users)
      .set({ preferences: { discoverable: false } })
      .where(eq(users.id, shy.id));
    expect((await lookup([shy.email])).json().results[0].isPlatformUser).toBe(false);
  });

  it('refuses bad bodies and answers 404 for a team the caller is not in', async () => {
    expectValidationPaths(await lookup([]), ['/body/emails']);
    expectValidationPaths(await lookup(Array.from({ length: 101 }, (_, i) => `a${i}@example.test`)), [
      '/body/emails',
    ]);
    expectValidationPaths(await lookup(['not-an-address']), ['/body/emails/0']);
    expect((await lookup([UNKNOWN], stranger.token)).statusCode).toBe(404);
  });

  it(`counts distinct addresses against ${LOOKUPS_PER_HOUR} an hour per caller, then answers 429`, async () => {
    const own = await ctx.newTeam(stranger);
    const batch = (n: number) => Array.from({ length: 100 }, (_, i) => `probe-${n}-${i}@example.test`);
    const send = (emails: string[], token = stranger.token) => lookup(emails, token, own.id);
    // Repeats of one address count once.
    expect((await send(Array.from({ length: 100 }, () => 'same@example.test'))).statusCode).toBe(200);
    for (let n = 0; n < 4; n++) expect((await send(batch(n))).statusCode).toBe(200);
    // 401 counted; 100 more would pass the limit: refused, and nothing of it counted.
    const refused = await send(batch(9));
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect((await send(batch(10).slice(0, 99))).statusCode).toBe(200);
    expect((await send([UNKNOWN])).statusCode).toBe(429);
    // Another caller has a budget of their own; a key counts for its team.
    expect((await lookup([UNKNOWN])).statusCode).toBe(200);
    const key = await ctx.newApiKey(own, []);
    expect((await send([UNKNOWN], key)).statusCode).toBe(200);
  });
});
