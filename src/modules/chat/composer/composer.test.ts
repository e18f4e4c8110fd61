import { beforeAll, describe, expect, it } from 'vitest';
import { albumHelpers } from '../../../../test/helpers/albums.ts';
import {
  type TestTeam,
  type TestTrack,
  type TestUser,
  useTestContext,
} from '../../../../test/helpers/context.ts';
import { chatHelpers } from '../chat.test-support.ts';

const ctx = useTestContext();
const { call } = chatHelpers(ctx);

let team: TestTeam;
let other: TestTeam;
let maya: TestUser;
let mark: TestUser;
let track: TestTrack;
let albumId: number;
let contactId: number;
let foreignTrack: TestTrack;

async function newContact(owner: TestTeam, name: string, company?: string): Promise<number> {
  const res = await ctx.request({
    method: 'POST',
    url: '/api/v1/contacts/',
    token: owner.owner.token,
    payload: { team_id: owner.id, name, ...(company ? { company } : {}) },
  });
  if (res.statusCode !== 201) throw new Error(`contact: ${res.statusCode} ${res.body}`);
  return res.json().id;
}

beforeAll(async () => {
  team = await ctx.newTeam();
  other = await ctx.newTeam();
  maya = await ctx.addMember(team, 'member', await ctx.newUser({ name: 'Maya Stone' }));
  mark = await ctx.addMember(team, 'member', await ctx.newUser({ name: 'Mark Lee' }));
  track = await ctx.newTrack(team, { title: 'Mayday' });
  await ctx.newTrack(team, { title: 'Zebra' });
  foreignTrack = await ctx.newTrack(other, { title: 'Mayflower' });
  albumId = (await albumHelpers(ctx).newAlbum(team, { title: 'May Sessions', artist: 'The Band' })).id;
  contactId = await newContact(team, 'Maya Agent', 'Agency');
  await newContact(other, 'Mayor');
});

const search = (q: string, user: TestUser = team.owner, extra = '') =>
  call('GET', `/api/v1/chat/mention-search?teamId=${team.id}&q=${encodeURIComponent(q)}${extra}`, user);

describe('mention search', () => {
  it('finds people, tracks, albums and contacts of the team by prefix, in any case', async () => {
    const res = await search('MAY');
    expect(res.status).toBe(200);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.items).toEqual([
      { kind: 'user', id: maya.id, label: 'Maya Stone', detail: maya.email },
      { kind: 'track', id: String(track.id), label: 'Mayday', detail: null },
      { kind: 'album', id: String(albumId), label: 'May Sessions', detail: 'The Band' },
      { kind: 'contact', id: String(contactId), label: 'Maya Agent', detail: 'Agency' },
    ]);
    expect(JSON.stringify(res.body)).not.toContain('Mayflower');
    expect(JSON.stringify(res.body)).not.toContain('Mayor');
  });

  it('takes every kind in turn up to the limit, and treats wildcards literally', async () => {
    const limited = await search('ma', team.owner, '&limit=2');
    expect(limited.body.items.map((i: { kind: string }) => i.kind)).toEqual(['user', 'track']);
    expect((await search('%')).body.items).toEqual([]);
    expect((await search('_aya')).body.items).toEqual([]);
    const everyone = await call('GET', `/api/v1/chat/mention-search?teamId=${team.id}`, team.owner);
    expect(everyone.body.items.length).toBeGreaterThanOrEqual(7);
    expect((await search('x'.repeat(101))).status).toBe(400);
    expect((await search('m', team.owner, '&limit=0')).status).toBe(400);
  });

  it('is 404 for a team the caller is not in', async () => {
    const res = await search('m', other.owner);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('people', () => {
  it('lists the team’s members but the caller, alphabetically, in pages', async () => {
    const res = await call('GET', `/api/v1/chat/people?teamId=${team.id}`, maya);
    expect(res.status).toBe(200);
    const names = res.body.items.map((p: { id: string }) => p.id);
    expect(names).not.toContain(maya.id);
    expect(names).toEqual(expect.arrayContaining([mark.id, team.owner.id]));
    expect(res.body.items.find((p: { id: string }) => p.id === mark.id)).toEqual({
      id: mark.id,
      name: 'Mark Lee',
      email: mark.email,
    });
    const first = await call('GET', `/api/v1/chat/people?teamId=${team.id}&limit=1`, maya);
    const second = await call(
      'GET',
      `/api/v1/chat/people?teamId=${team.id}&limit=1&cursor=${first.body.nextCursor}`,
      maya,
    );
    expect([...first.body.items, ...second.body.items]).toEqual(res.body.items);
    expect(second.body.nextCursor).toBeNull();
    expect((await call('GET', `/api/v1/chat/people?teamId=${team.id}`, other.owner)).status).toBe(404);
    expect((await call('GET', '/api/v1/chat/people', maya)).status).toBe(400);
  });
});

describe('mention context', () => {
  const context = (kind: string, id: string | number, user: TestUser = mark) =>
    call('GET', `/api/v1/chat/mention-context?teamId=${team.id}&kind=${kind}&id=${id}`, user);

  it('answers a card for each kind of target of the team', async () => {
    expect((await context('user', maya.id.toUpperCase())).body).toEqual({
      kind: 'user',
      id: maya.id,
      label: 'Maya Stone',
      detail: maya.email,
    });
    expect((await context('track', track.id)).body).toMatchObject({ kind: 'track', label: 'Mayday' });
    expect((await context('album', albumId)).body).toMatchObject({ kind: 'album', detail: 'The Band' });
    expect((await context('contact', contactId)).body).toMatchObject({
      kind: 'contact',
      label: 'Maya Agent',
    });
  });

  it('is 404 outside the team and 400 for an id of the wrong shape', async () => {
    expect((await context('track', foreignTrack.id)).status).toBe(404);
    expect((await context('user', other.owner.id)).status).toBe(404);
    expect((await context('contact', 2_000_000_000)).status).toBe(404);
    expect((await context('track', track.id, other.owner)).status).toBe(404);
    for (const [kind, id] of [
      ['user', '12'],
      ['track', maya.id],
      ['album', '0'],
      ['album', '99999999999'],
      ['team', '1'],
    ] as const) {
      const res = await context(kind, id);
      expect(res.status, `${kind} ${id}`).toBe(400);
    }
  });
});
