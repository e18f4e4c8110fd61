import { Readable } from 'node:stream';
import { and, count, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECRETS, TestClock, type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { buildApp } from '../../app.ts';
import type { App } from '../../app-types.ts';
import { albums, apiKeys, idempotencyKeys } from '../../db/schema/index.ts';
import { requesterFor } from '../../modules/auth/fixtures/second-app.ts';
import { auth } from '../auth.ts';
import { requestHash } from './request-fingerprint.ts';

const DAY = 24 * 60 * 60_000;
const clock = new TestClock();
const ctx = useTestContext({ clock });

const REPLAYED = 'idempotent-replayed';

function createAlbum(team: TestTeam, key: string | undefined, body: object, token = team.owner.token) {
  return ctx.request({
    method: 'POST',
    url: '/api/v1/albums',
    token,
    headers: key === undefined ? {} : { 'idempotency-key': key },
    payload: body,
  });
}

async function albumCount(team: TestTeam): Promise<number> {
  const [row] = await ctx.database.db.select({ n: count() }).from(albums).where(eq(albums.teamId, team.id));
  return row!.n;
}

async function storedRow(principal: string, key: string) {
  const [row] = await ctx.database.db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.principal, principal), eq(idempotencyKeys.key, key)));
  return row;
}

function expectReplayOf(replayed: LightMyRequestResponse, first: LightMyRequestResponse) {
  expect(first.headers[REPLAYED]).toBeUndefined();
  expect(replayed.headers[REPLAYED]).toBe('true');
  expect(replayed.statusCode).toBe(first.statusCode);
  expect(replayed.headers['content-type']).toBe(first.headers['content-type']);
  expect(replayed.body).toBe(first.body);
}

describe('Idempotency-Key on authenticated POSTs', () => {
  it('replays the first answer to the same request, without running it again', async () => {
    const team = await ctx.newTeam();
    const body = { title: 'Night Drive', teamId: team.id };
    const first = await createAlbum(team, 'create-night-drive', body);
    expect(first.statusCode).toBe(201);
    const again = await createAlbum(team, 'create-night-drive', body);
    expectReplayOf(again, first);
    // A trailing slash and another key order are the same request.
    const reordered = await ctx.request({
      method: 'POST',
      url: '/api/v1/albums/',
      token: team.owner.token,
      headers: { 'idempotency-key': 'create-night-drive' },
      payload: { teamId: team.id, title: 'Night Drive' },
    });
    expectReplayOf(reordered, first);
    expect(await albumCount(team)).toBe(1);
    const row = await storedRow(`user:${team.owner.id}`, 'create-night-drive');
    expect(row).toMatchObject({ responseStatus: 201, lockedUntil: null });
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(DAY);
    expect(Object.keys(row!.responseHeaders!)).toEqual(['content-type']);
  });

  it('answers 409 idempotency_key_reused to the same key with another body, and changes nothing', async () => {
    const team = await ctx.newTeam();
    expect((await createAlbum(team, 'k-1', { title: 'One', teamId: team.id })).statusCode).toBe(201);
    const other = await createAlbum(team, 'k-1', { title: 'Two', teamId: team.id });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual({ error: expect.any(String), code: 'idempotency_key_reused' });
    expect(other.headers[REPLAYED]).toBeUndefined();
    expect(await albumCount(team)).toBe(1);
  });

  it('answers 409 to the same key and body on another route (another request)', async () => {
    const team = await ctx.newTeam();
    const body = { name: 'Shared name' };
    const created = await ctx.request({
      method: 'POST',
      url: '/api/v1/teams',
      token: team.owner.token,
      headers: { 'idempotency-key': 'same-body' },
      payload: body,
    });
    expect(created.statusCode).toBe(201);
    const elsewhere = await ctx.request({
      method: 'POST',
      url: `/api/v1/teams/${team.id}/api-keys`,
      token: team.owner.token,
      headers: { 'idempotency-key': 'same-body' },
      payload: body,
    });
    expect(elsewhere.statusCode).toBe(409);
    expect(elsewhere.json().code).toBe('idempotency_key_reused');
  });

  it('keeps keys per principal: another user, and an API key of the same team, run on their own', async () => {
    const team = await ctx.newTeam();
    const otherTeam = await ctx.newTeam();
    const apiKey = await ctx.newApiKey(team, ['albums:write']);
    const body = { title: 'Shared key', teamId: team.id };
    const byOwner = await createAlbum(team, 'shared-key', body);
    const byKey = await createAlbum(team, 'shared-key', body, apiKey);
    const byOther = await createAlbum(otherTeam, 'shared-key', { title: 'Shared key', teamId: otherTeam.id });
    for (const res of [byOwner, byKey, byOther]) {
      expect(res.statusCode).toBe(201);
      expect(res.headers[REPLAYED]).toBeUndefined();
    }
    expect(byKey.json().id).not.toBe(byOwner.json().id);
    expect(await albumCount(team)).toBe(2);
    expect(await albumCount(otherTeam)).toBe(1);
    // Someone outside the team sending the owner's exact request and key gets their own answer.
    const stranger = await createAlbum(otherTeam, 'shared-key', body, (await ctx.newUser()).token);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.headers[REPLAYED]).toBeUndefined();
  });

  it('runs ten concurrent duplicates once: one resource, ten identical answers', async () => {
    const team = await ctx.newTeam();
    const body = { title: 'Stampede', teamId: team.id };
    const answers = await Promise.all(Array.from({ length: 10 }, () => createAlbum(team, 'stampede', body)));
    expect(answers.map((res) => res.statusCode)).toEqual(answers.map(() => 201));
    expect(new Set(answers.map((res) => res.body)).size).toBe(1);
    expect(answers.filter((res) => res.headers[REPLAYED] === 'true')).toHaveLength(9);
    expect(await albumCount(team)).toBe(1);
  });

  it('stores a 4xx answer, validation errors included, and replays it', async () => {
    const team = await ctx.newTeam();
    const invalid = { title: 'Typo', teamId: team.id, titel: 'x' };
    const first = await createAlbum(team, 'bad-body', invalid);
    expect(first.statusCode).toBe(400);
    expect(first.json().code).toBe('validation_failed');
    expect(first.json().details).toContainEqual({ path: '/body/titel', message: 'is not an accepted field' });
    expectReplayOf(await createAlbum(team, 'bad-body', invalid), first);
    expect((await storedRow(`user:${team.owner.id}`, 'bad-body'))?.responseStatus).toBe(400);

    const foreign = { title: 'Not mine', teamId: (await ctx.newTeam()).id };
    const notFound = await createAlbum(team, 'foreign', foreign);
    expect(notFound.statusCode).toBe(404);
    expectReplayOf(await createAlbum(team, 'foreign', foreign), notFound);
    expect(await albumCount(team)).toBe(0);
  });

  it('refuses an Idempotency-Key that is not 1..255 printable ASCII characters with 400, and runs nothing', async () => {
    const team = await ctx.newTeam();
    const body = { title: 'Bad key', teamId: team.id };
    for (const key of ['', 'x'.repeat(256), 'clé', 'tab\there']) {
      const res = await createAlbum(team, key, body);
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        details: [{ path: '/headers/idempotency-key' }],
      });
    }
    expect(await albumCount(team)).toBe(0);
    const longest = await createAlbum(team, `${'~'.repeat(127)} ${'!'.repeat(127)}`, body);
    expect(longest.statusCode).toBe(201);
  });

  it('ignores the header on anonymous POSTs', async () => {
    const user = await ctx.newUser();
    const login = () =>
      ctx.request({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { 'idempotency-key': 'login' },
        payload: { email: user.email, password: user.password },
      });
    const [first, second] = [await login(), await login()];
    for (const res of [first, second]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers[REPLAYED]).toBeUndefined();
    }
    expect(second.json().refresh_token).not.toBe(first.json().refresh_token);
    const invalidKey = await ctx.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'idempotency-key': '' },
      payload: { email: user.email, password: user.password },
    });
    expect(invalidKey.statusCode).toBe(200);
    expect(
      await ctx.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'login')),
    ).toEqual([]);
  });

  it('claims nothing for a request refused before it runs (401)', async () => {
    const team = await ctx.newTeam();
    const res = await createAlbum(team, 'unauthenticated', { title: 'x', teamId: team.id }, 'not-a-token');
    expect(res.statusCode).toBe(401);
    const rows = await ctx.database.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, 'unauthenticated'));
    expect(rows).toEqual([]);
  });

  it('stores nothing for a POST without the header', async () => {
    const team = await ctx.newTeam();
    expect((await createAlbum(team, undefined, { title: 'Plain', teamId: team.id })).statusCode).toBe(201);
    expect((await createAlbum(team, undefined, { title: 'Plain', teamId: team.id })).statusCode).toBe(201);
    expect(await albumCount(team)).toBe(2);
    const rows = await ctx.database.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.principal, `user:${team.owner.id}`));
    expect(rows).toEqual([]);
  });

  it('takes over a claim whose process died (lease passed without an answer) and runs it', async () => {
    const team = await ctx.newTeam();
    const body = { title: 'Orphan', teamId: team.id };
    const now = clock.now();
    await ctx.database.db.insert(idempotencyKeys).values({
      principal: `user:${team.owner.id}`,
      key: 'orphan',
      requestHash: requestHash({ method: 'POST', route: '/api/v1/albums/', params: {}, query: {}, body }),
      lockedUntil: new Date(now.getTime() - 1),
      createdAt: new Date(now.getTime() - 60_000),
      expiresAt: new Date(now.getTime() + DAY),
    });
    const res = await createAlbum(team, 'orphan', body);
    expect(res.statusCode).toBe(201);
    expect(res.headers[REPLAYED]).toBeUndefined();
    expect(await albumCount(team)).toBe(1);
    expectReplayOf(await createAlbum(team, 'orphan', body), res);
    // An abandoned claim of another request still binds the key to that request.
    await ctx.database.db.insert(idempotencyKeys).values({
      principal: `user:${team.owner.id}`,
      key: 'orphan-2',
      requestHash: 'another request',
      lockedUntil: new Date(now.getTime() - 1),
      expiresAt: new Date(now.getTime() + DAY),
    });
    expect((await createAlbum(team, 'orphan-2', body)).json().code).toBe('idempotency_key_reused');
  });

  it('documents the header, the replay marker and the 409 codes on every authenticated POST', async () => {
    const document = (await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    type Operation = {
      security: unknown[];
      description?: string;
      parameters?: { name: string; in: string }[];
      responses: Record<string, { description: string; headers?: Record<string, unknown> }>;
    };
    const posts = Object.values(document.paths).flatMap((ops) => (ops.post ? [ops.post] : []));
    const [authenticated, anonymous] = [
      posts.filter((op) => op.security.length > 0),
      posts.filter((op) => op.security.length === 0),
    ];
    expect(authenticated.length).toBeGreaterThan(10);
    expect(anonymous.length).toBeGreaterThanOrEqual(3);
    for (const op of authenticated) {
      expect(op.parameters).toContainEqual(
        expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }),
      );
      expect(op.responses['409']!.description).toMatch(/idempotency_key_reused.*idempotency_key_in_use/);
      for (const [status, response] of Object.entries(op.responses)) {
        if (/^2/.test(status)) expect(response.headers).toHaveProperty('Idempotent-Replayed');
      }
      expect(op.responses['401']!.headers).toBeUndefined();
    }
    for (const op of anonymous) {
      expect(op.parameters ?? []).not.toContainEqual(expect.objectContaining({ name: 'Idempotency-Key' }));
      expect(op.description).toMatch(/Idempotency-Key is ignored/);
    }
  });
});

describe('failures and streamed answers', () => {
  // The service with two more routes, one failing and one streaming: the plugin treats them like any other.
  let runs = 0;
  let app: App | undefined;
  beforeAll(async () => {
    app = await buildApp({
      config: ctx.config,
      database: ctx.database,
      clock: ctx.clock,
      secrets: TEST_SECRETS,
      logger: false,
    });
    const options = { config: { auth: auth.session }, schema: { hide: true } };
    app.post('/api/v1/test-only/fails', options, async () => {
      runs++;
      throw new Error('handler failed');
    });
    app.post('/api/v1/test-only/streams', options, async (_request, reply) => {
      runs++;
      return reply.type('text/plain').send(Readable.from(['streamed']));
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });
  const requestB: ReturnType<typeof requesterFor> = (options) => requesterFor(app!)(options);

  it('releases the key after a 5xx, so the retry runs', async () => {
    const user = await ctx.newUser();
    const send = () =>
      requestB({
        method: 'POST',
        url: '/api/v1/test-only/fails',
        token: user.token,
        headers: { 'idempotency-key': 'fails' },
      });
    const before = runs;
    expect((await send()).statusCode).toBe(500);
    expect(await storedRow(`user:${user.id}`, 'fails')).toBeUndefined();
    expect((await send()).statusCode).toBe(500);
    expect(runs - before).toBe(2);
  });

  it('does not store a streamed answer: the claim is released', async () => {
    const user = await ctx.newUser();
    const send = () =>
      requestB({
        method: 'POST',
        url: '/api/v1/test-only/streams',
        token: user.token,
        headers: { 'idempotency-key': 'streams' },
      });
    const before = runs;
    const first = await send();
    expect(first.statusCode).toBe(200);
    expect(first.body).toBe('streamed');
    expect(await storedRow(`user:${user.id}`, 'streams')).toBeUndefined();
    const second = await send();
    expect(second.headers[REPLAYED]).toBeUndefined();
    expect(runs - before).toBe(2);
  });
});

describe('expiry after 24 hours', () => {
  it('replays until 24 hours have passed, then runs the key again', async () => {
    const team = await ctx.newTeam();
    // An API key: a session's access token would expire as the clock moves a day.
    const apiKey = await ctx.newApiKey(team, ['albums:write']);
    const body = { title: 'Daily', teamId: team.id };
    const first = await createAlbum(team, 'daily', body, apiKey);
    expect(first.statusCode).toBe(201);
    clock.advance(DAY - 1);
    expectReplayOf(await createAlbum(team, 'daily', body, apiKey), first);
    clock.advance(1);
    const later = await createAlbum(team, 'daily', body, apiKey);
    expect(later.statusCode).toBe(201);
    expect(later.headers[REPLAYED]).toBeUndefined();
    expect(later.json().id).not.toBe(first.json().id);
    expect(await albumCount(team)).toBe(2);
  });

  it('has a recurring job that deletes expired keys and keeps live ones', async () => {
    const team = await ctx.newTeam();
    const apiKey = await ctx.newApiKey(team, ['albums:write']);
    const oldOnes = ['old-1', 'old-2'];
    for (const key of oldOnes) await createAlbum(team, key, { title: key, teamId: team.id }, apiKey);
    clock.advance(DAY);
    await createAlbum(team, 'new-1', { title: 'new', teamId: team.id }, apiKey);
    const principal = await keyPrincipal(team);
    expect((await keysOf(principal)).sort()).toEqual(['new-1', 'old-1', 'old-2']);
    await ctx.app.services.jobs.runDue();
    expect(await keysOf(principal)).toEqual(['new-1']);
  });
});

async function keysOf(principal: string): Promise<string[]> {
  const rows = await ctx.database.db
    .select({ key: idempotencyKeys.key })
    .from(idempotencyKeys)
    .where(eq(idempotencyKeys.principal, principal));
  return rows.map((row) => row.key);
}

/** The principal of the one API key a team has. */
async function keyPrincipal(team: TestTeam): Promise<string> {
  const [row] = await ctx.database.db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(eq(apiKeys.teamId, team.id));
  return `key:${row!.id}`;
}
