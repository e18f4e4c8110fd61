import { describe, expect, it } from 'vitest';
import { createTestContext, useTestContext } from '../../test/helpers/context.ts';
import { compileAllPending, onFirstUse } from './compile-on-first-use.ts';

const ctx = useTestContext();

describe('validators and serializers compiled on first use', () => {
  it('compile once, when first asked for', () => {
    let compiled = 0;
    const get = onFirstUse(() => ({ made: ++compiled }));
    expect(compiled).toBe(0);
    expect(get()).toEqual({ made: 1 });
    expect(get()).toBe(get());
    expect(compiled).toBe(1);
  });

  it('all compile, for every route of the app, and answer as before', async () => {
    const before = await ctx.request({ method: 'GET', url: '/api/v1/tracks/?limit=0', token: 'x' });
    expect(before.statusCode).toBe(401);
    compileAllPending();
    expect(compileAllPending()).toBe(0);
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const read = await ctx.request({
      method: 'GET',
      url: `/api/v1/tracks/${track.id}`,
      token: team.owner.token,
    });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: track.id, title: track.title });
    const refused = await ctx.request({
      method: 'GET',
      url: `/api/v1/tracks/?teamId=${team.id}&limit=0`,
      token: team.owner.token,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'validation_failed' });
  });

  it('are shared by every app of the process: another app brings fewer than one of its own per route', async () => {
    compileAllPending();
    const another = await createTestContext();
    try {
      // Route schemas are module constants, and so are the error answers every route documents; what an
      // app brings of its own is a route's particular answer written in its route code (a 409, say).
      expect(compileAllPending()).toBeLessThan(another.app.routeTable.length);
    } finally {
      await another.close();
    }
  });
});
