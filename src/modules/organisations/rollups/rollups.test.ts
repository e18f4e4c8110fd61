import { uuidv7 } from 'uuidv7';
import { beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestTeam, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import {
  contactEvents,
  contacts,
  type FollowUpStatus,
  financialEntries,
  followUpTasks,
  type LeadStatus,
} from '../../../db/schema/index.ts';
import { organisationHelpers, type TestOrganisation } from '../organisations.test-support.ts';

const NOW = Date.parse('2030-03-15T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const clock = new TestClock(NOW);
const ctx = useTestContext({ clock });
const { organisationWithTeam, addTeam } = organisationHelpers(ctx);

let org: TestOrganisation;
let teamA: TestTeam;
let teamB: TestTeam;
let outside: TestTeam;
let teamMember: TestUser;
const task: Record<string, string> = {};
const contact: Record<string, number> = {};
const deal: Record<string, number> = {};

async function newTask(
  name: string,
  team: TestTeam,
  user: TestUser,
  dueIn: number | null,
  status: FollowUpStatus = 'open',
) {
  const id = uuidv7();
  await ctx.database.db.insert(followUpTasks).values({
    id,
    teamId: team.id,
    userId: user.id,
    botId: 'assistant',
    person: name,
    network: name === 'Maya' ? 'instagram' : null,
    dueAt: dueIn === null ? null : new Date(NOW + dueIn),
    status,
  });
  task[name] = id;
}

async function newContact(
  name: string,
  team: TestTeam,
  leadStatus: LeadStatus,
  quietFor: number,
  eventAgo?: number,
) {
  const [row] = await ctx.database.db
    .insert(contacts)
    .values({ teamId: team.id, name, leadStatus, updatedAt: new Date(NOW - quietFor) })
    .returning({ id: contacts.id });
  contact[name] = row!.id;
  if (eventAgo !== undefined)
    await ctx.database.db.insert(contactEvents).values({
      teamId: team.id,
      contactId: row!.id,
      kind: 'note_added',
      createdAt: new Date(NOW - eventAgo),
    });
}

async function newDeal(
  name: string,
  team: TestTeam,
  occurredOn: string,
  status: 'pending' | 'confirmed' = 'pending',
) {
  const [row] = await ctx.database.db
    .insert(financialEntries)
    .values({ teamId: team.id, isIncome: true, amount: '1250.50', occurredOn, status, description: name })
    .returning({ id: financialEntries.id });
  deal[name] = row!.id;
}

beforeAll(async () => {
  ({ organisation: org, team: teamA } = await organisationWithTeam());
  teamB = await ctx.newTeam(org.owner);
  await addTeam(org, teamB);
  outside = await ctx.newTeam(org.owner);
  teamMember = await ctx.addMember(teamA, 'member');

  await newTask('Maya', teamA, org.owner, -HOUR);
  await newTask('Sam', teamA, teamMember, 24 * HOUR);
  await newTask('Lee', teamB, org.owner, 72 * HOUR);
  await newTask('Undated', teamB, org.owner, null);
  await newTask('Undated too', teamB, org.owner, null);
  await newTask('Done', teamA, org.owner, -DAY, 'done');
  await newTask('Elsewhere', outside, org.owner, -DAY);

  await newContact('Nina', teamA, 'negotiating', 20 * DAY);
  await newContact('Bo', teamA, 'new', 30 * DAY);
  await newContact('Ann', teamA, 'qualified', 20 * DAY, 2 * DAY);
  await newContact('Zed', teamA, 'won', 30 * DAY);
  await newContact('Carl', teamB, 'contacted', DAY);
  await newContact('Al', teamB, 'negotiating', DAY);
  await newContact('Out', outside, 'negotiating', 30 * DAY);

  await newDeal('late', teamA, '2030-03-14');
  await newDeal('soon', teamB, '2030-03-25');
  await newDeal('far', teamB, '2030-05-30');
  await newDeal('confirmed', teamA, '2030-03-01', 'confirmed');
  await newDeal('outside', outside, '2030-03-01');
});

const get = (path: string, token = org.owner.token) =>
  ctx.request({ method: 'GET', url: `/api/v1/organisations/${org.id}${path}`, token });

describe('GET /organisations/{id}/follow-ups', () => {
  const people = (res: { json(): { items: { person: string }[] } }) => res.json().items.map((t) => t.person);

  it("rolls up the open tasks of the organisation's teams, earliest due first, undated last, page by page", async () => {
    const first = await get('/follow-ups?limit=3');
    expect(first.statusCode).toBe(200);
    expect(people(first)).toEqual(['Maya', 'Sam', 'Lee']);
    expect(first.json().items[0]).toEqual({
      id: task.Maya,
      teamId: teamA.id,
      assignee: org.owner.id,
      person: 'Maya',
      network: 'instagram',
      contactId: null,
      dueAt: new Date(NOW - HOUR).toISOString(),
      note: null,
      status: 'open',
      completedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const rest = await get(`/follow-ups?limit=3&cursor=${first.json().nextCursor}`);
    expect(rest.json()).toMatchObject({
      items: [{ person: 'Undated' }, { person: 'Undated too' }],
      nextCursor: null,
    });
    // One at a time, through the undated ones too.
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = await get(`/follow-ups?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...people(page));
      cursor = page.json().nextCursor;
    }
    expect(seen).toEqual(['Maya', 'Sam', 'Lee', 'Undated', 'Undated too']);
  });

  it('filters by status, assignee and due time', async () => {
    expect(people(await get('/follow-ups?status=done'))).toEqual(['Done']);
    expect(people(await get(`/follow-ups?assignee=${teamMember.id}`))).toEqual(['Sam']);
    expect(people(await get(`/follow-ups?dueBefore=${new Date(NOW).toISOString()}`))).toEqual(['Maya']);
    for (const query of ['status=late', 'assignee=nobody', 'dueBefore=tomorrow', 'limit=0', 'cursor=abc']) {
      expect((await get(`/follow-ups?${query}`)).statusCode, query).toBe(400);
    }
  });

  it('shows a reader who only belongs to one of the teams just their own tasks', async () => {
    expect(people(await get('/follow-ups', teamMember.token))).toEqual(['Sam']);
    expect(people(await get(`/follow-ups?assignee=${org.owner.id}`, teamMember.token))).toEqual([]);
  });
});

describe('GET /organisations/{id}/prospects', () => {
  const names = (res: { json(): { items: { name: string }[] } }) => res.json().items.map((c) => c.name);

  it('lists open contacts furthest stage first, then by name, with counts per stage', async () => {
    const first = await get('/prospects?limit=2');
    expect(first.statusCode).toBe(200);
    expect(names(first)).toEqual(['Al', 'Nina']);
    expect(first.json().counts).toEqual({ new: 1, contacted: 1, qualified: 1, negotiating: 2 });
    expect(first.json().items[0]).toEqual({
      id: contact.Al,
      teamId: teamB.id,
      name: 'Al',
      email: null,
      company: null,
      role: null,
      leadStatus: 'negotiating',
      updatedAt: expect.any(String),
    });
    const rest = await get(`/prospects?limit=2&cursor=${first.json().nextCursor}`);
    expect(names(rest)).toEqual(['Ann', 'Carl']);
    const last = await get(`/prospects?limit=2&cursor=${rest.json().nextCursor}`);
    expect(last.json()).toMatchObject({ items: [{ name: 'Bo' }], nextCursor: null });
    expect(names(await get('/prospects?status=negotiating'))).toEqual(['Al', 'Nina']);
    expect((await get('/prospects?status=won')).statusCode).toBe(400);
  });

  it("shows a team-only reader their teams' contacts", async () => {
    const res = await get('/prospects', teamMember.token);
    expect(names(res)).toEqual(['Nina', 'Ann', 'Bo']);
    expect(res.json().counts).toEqual({ new: 1, contacted: 0, qualified: 1, negotiating: 1 });
  });
});

describe('GET /organisations/{id}/next-actions', () => {
  const summary = (res: { json(): { items: { kind: string; reason: string; priority: number }[] } }) =>
    res.json().items.map((a) => `${a.priority} ${a.kind} ${a.reason}`);

  it('puts overdue follow-ups and deals first, then tasks due soon, stale leads and upcoming deals', async () => {
    const res = await get('/next-actions');
    expect(res.statusCode).toBe(200);
    expect(summary(res)).toEqual([
      '1 follow_up overdue',
      '2 deal overdue',
      '3 follow_up due_soon',
      '4 lead stale',
      '6 deal upcoming',
    ]);
    const [followUp, late, , lead, soon] = res.json().items;
    expect(followUp).toEqual({
      kind: 'follow_up',
      reason: 'overdue',
      priority: 1,
      teamId: teamA.id,
      at: new Date(NOW - HOUR).toISOString(),
      title: 'Follow up with Maya on instagram',
      followUp: { id: task.Maya, assignee: org.owner.id, person: 'Maya', network: 'instagram' },
    });
    expect(late).toMatchObject({
      teamId: teamA.id,
      at: '2030-03-14T00:00:00.000Z',
      deal: { id: deal.late, amount: 1250.5, currency: 'EUR', occurredOn: '2030-03-14', isIncome: true },
    });
    expect(lead).toMatchObject({ contact: { id: contact.Nina, name: 'Nina', leadStatus: 'negotiating' } });
    expect(lead.title).toContain('20 days');
    expect(soon.deal.id).toBe(deal.soon);
    expect(res.json().nextCursor).toBeNull();
  });

  it("narrows to a team-only reader's teams and own tasks", async () => {
    expect(summary(await get('/next-actions', teamMember.token))).toEqual([
      '2 deal overdue',
      '3 follow_up due_soon',
      '4 lead stale',
    ]);
  });

  it('is empty for an organisation without teams', async () => {
    const lonely = await ctx.request({
      method: 'POST',
      url: '/api/v1/organisations',
      token: org.owner.token,
      payload: { name: 'Lonely' },
    });
    const id = lonely.json().id;
    for (const path of ['next-actions', 'follow-ups', 'prospects']) {
      const res = await ctx.request({
        method: 'GET',
        url: `/api/v1/organisations/${id}/${path}`,
        token: org.owner.token,
      });
      expect(res.json(), path).toMatchObject({ items: [], nextCursor: null });
    }
  });
});
