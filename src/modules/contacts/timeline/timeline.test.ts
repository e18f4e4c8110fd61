import { beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestTeam, useTestContext } from '../../../../test/helpers/context.ts';
import { encodeCursor } from '../../../shared/pagination.ts';
import { contactHelpers, expectValidationPaths } from '../contacts.test-support.ts';

const clock = new TestClock(Date.parse('2031-06-01T12:00:00.000Z'));
const ctx = useTestContext({ clock });
const { get, patch, newContact } = contactHelpers(ctx);

type Item = { kind: string; at: string; by: string | null; entry?: { id: number } };

let team: TestTeam;
let contactId: number;
const entryIds: number[] = [];

async function newEntry(amount: number, forContact = contactId) {
  const res = await ctx.request({
    method: 'POST',
    url: '/api/v1/financials/',
    token: team.owner.token,
    payload: { teamId: team.id, isIncome: true, amount, contactId: forContact },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json().id as number;
}

const at = (seconds: number) =>
  new Date(Date.parse('2031-06-01T12:00:00.000Z') + seconds * 1000).toISOString();

beforeAll(async () => {
  team = await ctx.newTeam();
  contactId = (await newContact(team, { name: 'Timeline' })).id;
  const other = (await newContact(team, { name: 'Someone else' })).id;
  clock.advance(1000);
  entryIds.push(await newEntry(10));
  await newEntry(99, other);
  clock.advance(1000);
  // An entry and two changes at the same instant.
  entryIds.push(await newEntry(20));
  await patch(contactId, team.owner.token, { company: 'Label', leadStatus: 'won', notes: 'Signed' });
  clock.advance(1000);
  entryIds.push(await newEntry(30));
});

const timeline = (query = '', id = contactId, token = team.owner.token) =>
  get(`/api/v1/contacts/${id}/timeline?${query}`, token);

async function pages(limit: number): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | null = null;
  do {
    const res = await timeline(`limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    items.push(...res.json().items);
    cursor = res.json().nextCursor;
  } while (cursor);
  return items;
}

describe('contact timeline', () => {
  it("merges the contact's events and its financial entries, newest first", async () => {
    const res = await timeline('limit=200');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().nextCursor).toBeNull();
    const items = res.json().items as Item[];
    const by = team.owner.id;
    expect(items.map(({ entry, ...item }) => (entry ? { ...item, entryId: entry.id } : item))).toEqual([
      { kind: 'financial_entry', at: at(3), by, entryId: entryIds[2] },
      // At one instant: the financial entry, then the contact's events newest first.
      { kind: 'financial_entry', at: at(2), by, entryId: entryIds[1] },
      { kind: 'notes_changed', at: at(2), by, notes: 'Signed' },
      { kind: 'lead_status_changed', at: at(2), by, from: 'new', to: 'won' },
      { kind: 'updated', at: at(2), by, fields: ['company'] },
      { kind: 'financial_entry', at: at(1), by, entryId: entryIds[0] },
      { kind: 'lead_status_changed', at: at(0), by, from: null, to: 'new' },
      { kind: 'created', at: at(0), by, name: 'Timeline' },
    ]);
    expect(items[0]!.entry).toMatchObject({ id: entryIds[2], amount: 30, contactId, teamId: team.id });
  });

  it('pages across both sources without gaps or repeats, whatever the page size', async () => {
    const all = await pages(200);
    for (const limit of [1, 2, 3, 5]) expect(await pages(limit), `limit ${limit}`).toEqual(all);
  });

  it('refuses cursors it did not issue and answers 404 for a hidden or missing contact', async () => {
    expectValidationPaths(await timeline('cursor=nope'), ['/query/cursor']);
    // Cursors bound to this list, holding values no page of it ends with.
    const binding = (await timeline('limit=1')).json().nextCursor.split('.')[1];
    for (const value of [
      ['2031-06-01T12:00:00.000Z', 'sessions', 1],
      ['yesterday', 'contact_event', 1],
      ['2031-06-01T12:00:00.000Z', 'contact_event', 2 ** 40],
      ['2031-06-01T12:00:00.000Z', 'contact_event'],
    ]) {
      expectValidationPaths(await timeline(`cursor=${encodeCursor(value)}.${binding}`), ['/query/cursor']);
    }
    const valid = encodeCursor(['2031-06-01T12:00:01.000Z', 'financial_entry', entryIds[0]!]);
    const rest = (await timeline(`cursor=${valid}.${binding}`)).json().items as Item[];
    expect(rest.map((i) => i.kind)).toEqual(['lead_status_changed', 'created']);
    expectValidationPaths(await timeline('limit=0'), ['/query/limit']);
    expect((await timeline('', 2_147_483_647)).statusCode).toBe(404);
    const outsider = await ctx.newUser();
    expect((await timeline('', contactId, outsider.token)).statusCode).toBe(404);
    const key = await ctx.newApiKey(team, []);
    expect((await timeline('', contactId, key)).statusCode).toBe(200);
  });
});

describe('studio sessions on the contact timeline', () => {
  type SessionItem = Item & { session?: { id: number; title: string; status: string } };
  let linked: number;
  let unlinked: number;
  const sessionIds: Record<string, number> = {};

  async function newSession(onTeam: TestTeam, title: string, startsAt: string, invite: object[]) {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v1/sessions/',
      token: onTeam.owner.token,
      payload: { teamId: onTeam.id, title, startsAt },
    });
    if (res.statusCode !== 201) throw new Error(res.body);
    const id = res.json().id as number;
    for (const payload of invite) {
      const invited = await ctx.request({
        method: 'POST',
        url: `/api/v1/sessions/${id}/participants`,
        token: onTeam.owner.token,
        payload,
      });
      if (invited.statusCode !== 201) throw new Error(invited.body);
    }
    sessionIds[title] = id;
  }

  beforeAll(async () => {
    const member = await ctx.addMember(team);
    const otherTeam = await ctx.newTeam(team.owner);
    await ctx.addMember(otherTeam, 'member', member);
    linked = (await newContact(team, { name: 'Linked', email: 'Guest@Example.test', userId: member.id })).id;
    unlinked = (await newContact(team, { name: 'Nobody' })).id;
    const created = at(3);
    await newSession(team, 'By user', at(7200), [{ userId: member.id }]);
    // At the instant the contact was created: the session sorts before the contact's own events.
    await newSession(team, 'By e-mail', created, [{ email: 'GUEST@example.TEST' }]);
    await newSession(team, 'Someone else', at(3600), [{ email: 'other@example.test' }]);
    await newSession(otherTeam, 'Other team', at(5400), [{ userId: member.id }]);
  });

  const sessionsOf = (items: SessionItem[]) =>
    items.filter((i) => i.kind === 'session').map((i) => [i.at, i.session!.title]);

  it("shows the team's sessions the contact takes part in, by linked user or e-mail, at their start", async () => {
    const res = await timeline('limit=200', linked);
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as SessionItem[];
    expect(items.map((i) => i.kind)).toEqual(['session', 'session', 'lead_status_changed', 'created']);
    expect(items[0]).toEqual({
      kind: 'session',
      at: at(7200),
      by: team.owner.id,
      session: {
        id: sessionIds['By user'],
        title: 'By user',
        startsAt: at(7200),
        endsAt: at(7200 + 2 * 3600),
        status: 'scheduled',
      },
    });
    expect(sessionsOf(items)).toEqual([
      [at(7200), 'By user'],
      [at(3), 'By e-mail'],
    ]);
    expect(sessionsOf((await timeline('limit=200', unlinked)).json().items)).toEqual([]);
  });

  it('pages across sessions and events without gaps or repeats', async () => {
    const collect = async (limit: number) => {
      const items: SessionItem[] = [];
      let cursor: string | null = null;
      do {
        const res = await timeline(`limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, linked);
        expect(res.statusCode, res.body).toBe(200);
        items.push(...res.json().items);
        cursor = res.json().nextCursor;
      } while (cursor);
      return items;
    };
    const all = await collect(200);
    expect(all).toHaveLength(4);
    for (const limit of [1, 2, 3]) expect(await collect(limit), `limit ${limit}`).toEqual(all);
  });
});
