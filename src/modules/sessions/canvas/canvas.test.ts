import { beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestTeam, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { sessionHelpers } from '../sessions.test-support.ts';

const NOW = Date.parse('2031-06-01T12:00:00.000Z');
const clock = new TestClock(NOW);
const ctx = useTestContext({ clock });
const { newSession, activityOf } = sessionHelpers(ctx);

let team: TestTeam;
let member: TestUser;

beforeAll(async () => {
  team = await ctx.newTeam();
  member = await ctx.addMember(team, 'member');
});

const read = (sessionId: number, token = member.token) =>
  ctx.request({ method: 'GET', url: `/api/v1/sessions/${sessionId}/canvas?teamId=${team.id}`, token });
const write = (sessionId: number, ifMatch: string | undefined, payload: object, token = member.token) =>
  ctx.request({
    method: 'PUT',
    url: `/api/v1/sessions/${sessionId}/canvas`,
    token,
    payload,
    ...(ifMatch === undefined ? {} : { headers: { 'if-match': ifMatch } }),
  });

describe('canvas', () => {
  it('starts at version 0 with {}, and counts each write', async () => {
    const { id } = await newSession(team);
    const empty = await read(id);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ version: 0, content: {}, updatedAt: null, updatedBy: null });
    expect(empty.headers.etag).toBe('"0"');

    clock.advance(1000);
    const first = await write(id, '0', { teamId: team.id, content: { lanes: [{ name: 'Drums' }] } });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      version: 1,
      content: { lanes: [{ name: 'Drums' }] },
      updatedAt: new Date(NOW + 1000).toISOString(),
      updatedBy: member.id,
    });
    expect(first.headers.etag).toBe('"1"');
    const second = await write(id, '"1"', { content: { lanes: [] } }, team.owner.token);
    expect(second.json()).toMatchObject({ version: 2, content: { lanes: [] }, updatedBy: team.owner.id });
    expect((await read(id)).json()).toMatchObject({ version: 2, content: { lanes: [] } });
    expect((await activityOf(id)).map((a) => a.data)).toEqual([{}, { version: 1 }, { version: 2 }]);
  });

  it('answers 428 without If-Match, 409 to a write based on an old version, and 400 to a bad one', async () => {
    const { id } = await newSession(team);
    await write(id, '0', { content: { a: 1 } });
    const missing = await write(id, undefined, { content: { a: 2 } });
    expect(missing.statusCode).toBe(428);
    expect(missing.json().code).toBe('precondition_required');
    for (const stale of ['0', '2', '7']) {
      const res = await write(id, stale, { content: { a: 3 } });
      expect(res.statusCode, stale).toBe(409);
      expect(res.json().code).toBe('conflict');
    }
    for (const bad of ['*', 'abc', '-1', '1.5', '99999999999']) {
      expect((await write(id, bad, { content: { a: 4 } })).statusCode, bad).toBe(400);
    }
    expect((await read(id)).json()).toMatchObject({ version: 1, content: { a: 1 } });
  });

  it('lets exactly one of two writes based on the same version win', async () => {
    const { id } = await newSession(team);
    const results = await Promise.all(
      ['left', 'right'].map((side) => write(id, '0', { content: { side } }, team.owner.token)),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.statusCode === 200)!.json().content;
    expect((await read(id)).json()).toMatchObject({ version: 1, content: winner });
  });

  it('refuses oversized, non-object and unstorable content, and other teams', async () => {
    const { id } = await newSession(team);
    const big = await write(id, '0', { content: { text: 'x'.repeat(256 * 1024) } });
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe('payload_too_large');
    for (const content of [
      [1, 2],
      'text',
      null,
      { 'a\u0000b': 1 },
      { ok: { 'x\ud800': 1 } },
      { a: 'nul\u0000' },
    ]) {
      const res = await write(id, '0', { content });
      expect(res.statusCode, JSON.stringify(content)).toBe(400);
    }
    expect((await write(id, '0', { content: {}, extra: 1 })).statusCode).toBe(400);
    const other = await ctx.newTeam(team.owner);
    expect((await write(id, '0', { teamId: other.id, content: {} }, team.owner.token)).statusCode).toBe(404);
    const outsider = await ctx.newUser();
    expect((await write(id, '0', { content: {} }, outsider.token)).statusCode).toBe(404);
    expect((await read(id, outsider.token)).statusCode).toBe(404);
    expect((await read(id)).json().version).toBe(0);
  });
});
