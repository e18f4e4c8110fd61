import { beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { contactHelpers, expectValidationPaths } from './contacts.test-support.ts';

const clock = new TestClock(Date.parse('2031-04-01T09:00:00.000Z'));
const ctx = useTestContext({ clock });
const { get, patch, newContact } = contactHelpers(ctx);

let team: TestTeam;
let maya: { id: number };
beforeAll(async () => {
  team = await ctx.newTeam();
  maya = await newContact(team, {
    name: 'Maya',
    email: 'Maya@Example.com',
    phone: '+1 415 555 0132',
    networks: [{ network: 'instagram', handle: '@Maya.Lind' }],
  });
  await newContact(team, { name: 'Other', email: 'other@example.com' });
});

const resolve = (query: string, token = team.owner.token) =>
  get(`/api/v1/contacts/resolve?teamId=${team.id}&${query}`, token);

describe('resolve', () => {
  it('finds a contact by handle (case-insensitive, @ optional), e-mail or phone in any notation', async () => {
    for (const query of [
      'network=instagram&handle=maya.lind',
      'network=Instagram&handle=%40MAYA.LIND',
      'network=instagram&handle=%20maya.lind%20',
      'email=MAYA%40example.COM',
      'phone=%2B14155550132',
      'phone=%2B1%20(415)%20555-0132',
      'phone=415-555-0132&phoneCountry=us',
    ]) {
      const res = await resolve(query);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
      expect(res.json().id).toBe(maya.id);
    }
  });

  it('answers 404 when nothing matches, also for another team', async () => {
    for (const query of [
      'network=tiktok&handle=maya.lind',
      'network=instagram&handle=maya',
      'email=nobody%40example.com',
      'phone=%2B14155550199',
    ]) {
      expect((await resolve(query)).statusCode, query).toBe(404);
    }
    const other = await ctx.newTeam(team.owner);
    const res = await get(
      `/api/v1/contacts/resolve?teamId=${other.id}&email=maya%40example.com`,
      team.owner.token,
    );
    expect(res.statusCode).toBe(404);
    const outsider = await ctx.newUser();
    expect((await resolve('email=maya%40example.com', outsider.token)).statusCode).toBe(404);
  });

  it('wants exactly one lookup, whole', async () => {
    expectValidationPaths(await resolve(''), ['/query']);
    expectValidationPaths(await resolve('email=maya%40example.com&phone=%2B14155550132'), ['/query']);
    expectValidationPaths(await resolve('network=instagram&email=maya%40example.com'), ['/query']);
    expectValidationPaths(await resolve('network=instagram'), ['/query/handle']);
    expectValidationPaths(await resolve('handle=maya'), ['/query/network']);
    expectValidationPaths(await resolve('network=instagram&handle=%40'), ['/query/handle']);
    expectValidationPaths(await resolve('phone=4155550132'), ['/query/phone']);
    expectValidationPaths(await resolve('phone=%2B1415&phoneCountry=US'), ['/query/phone']);
    expectValidationPaths(await resolve('phone=4155550132&phoneCountry=XX'), ['/query/phoneCountry']);
    expectValidationPaths(await resolve('email=maya%40example.com&phoneCountry=US'), ['/query/phoneCountry']);
    expectValidationPaths(await resolve('email=not-an-address'), ['/query/email']);
  });
});

describe('lead status', () => {
  const leadStatus = (contactId: number, teamId = team.id, token = team.owner.token) =>
    get(`/api/v1/contacts/lead-status?teamId=${teamId}&contactId=${contactId}`, token);

  it('starts with the status at creation and lists every move, oldest first', async () => {
    const contact = await newContact(team, { name: 'Lead', leadStatus: 'contacted' });
    const key = await ctx.newApiKey(team, ['contacts:write']);
    clock.advance(1000);
    await patch(contact.id, team.owner.token, { leadStatus: 'negotiating' });
    clock.advance(1000);
    await patch(contact.id, key, { leadStatus: 'won', notes: 'Signed' });
    clock.advance(1000);
    await patch(contact.id, team.owner.token, { name: 'Lead Renamed' });
    const res = await leadStatus(contact.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      contactId: contact.id,
      leadStatus: 'won',
      history: [
        { from: null, to: 'contacted', changedAt: '2031-04-01T09:00:00.000Z', changedBy: team.owner.id },
        {
          from: 'contacted',
          to: 'negotiating',
          changedAt: '2031-04-01T09:00:01.000Z',
          changedBy: team.owner.id,
        },
        { from: 'negotiating', to: 'won', changedAt: '2031-04-01T09:00:02.000Z', changedBy: null },
      ],
    });
    expect((await leadStatus(contact.id, team.id, key)).statusCode).toBe(200);
  });

  it('answers 404 for a contact of another team, or a team the caller is not in', async () => {
    const other = await ctx.newTeam(team.owner);
    const theirs = await newContact(other, { name: 'Theirs' });
    expect((await leadStatus(theirs.id)).statusCode).toBe(404);
    expect((await leadStatus(2_147_483_647)).statusCode).toBe(404);
    const outsider = await ctx.newUser();
    expect((await leadStatus(maya.id, team.id, outsider.token)).statusCode).toBe(404);
    expectValidationPaths(await get(`/api/v1/contacts/lead-status?teamId=${team.id}`, team.owner.token), [
      '/query/contactId',
    ]);
  });
});
