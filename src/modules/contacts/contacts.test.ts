import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestTeam, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { contactEvents, financialEntries, users } from '../../db/schema/index.ts';
import { contactHelpers, expectConflict, expectValidationPaths } from './contacts.test-support.ts';

const clock = new TestClock(Date.parse('2031-03-01T10:00:00.000Z'));
const ctx = useTestContext({ clock });
const { post, get, patch, newContact, newGroup, eventsOf, logOf, contactCount } = contactHelpers(ctx);

let team: TestTeam;
let member: TestUser;
beforeAll(async () => {
  team = await ctx.newTeam();
  member = await ctx.addMember(team, 'member');
});

describe('contacts', () => {
  describe('create', () => {
    it('creates a contact with every field, its events and its activity', async () => {
      const group = await newGroup(team, 'Promoters');
      const res = await post(member.token, {
        team_id: team.id,
        name: '  Maya Lind ',
        email: 'Maya@Example.COM',
        phone: '+49 (30) 123 456',
        company: 'Night Owl Records',
        role: 'A&R',
        networks: [
          { network: 'Instagram', handle: '@MayaLind' },
          { network: 'tiktok', handle: 'maya.sounds' },
        ],
        tags: ['vip', 'berlin'],
        groupIds: [group],
        leadStatus: 'contacted',
        notes: 'Met at the showcase',
        userId: member.id,
      });
      expect(res.statusCode, res.body).toBe(201);
      const contact = res.json();
      expect(contact).toEqual({
        id: expect.any(Number),
        teamId: team.id,
        name: 'Maya Lind',
        email: 'maya@example.com',
        phone: '+4930123456',
        company: 'Night Owl Records',
        role: 'A&R',
        networks: [
          { network: 'instagram', handle: '@MayaLind' },
          { network: 'tiktok', handle: 'maya.sounds' },
        ],
        tags: ['vip', 'berlin'],
        groupIds: [group],
        leadStatus: 'contacted',
        notes: 'Met at the showcase',
        userId: member.id,
        createdAt: '2031-03-01T10:00:00.000Z',
        updatedAt: '2031-03-01T10:00:00.000Z',
      });
      expect((await get(`/api/v1/contacts/${contact.id}`, team.owner.token)).json()).toEqual(contact);
      expect(await eventsOf(contact.id)).toEqual([
        { kind: 'created', data: { name: 'Maya Lind' } },
        { kind: 'lead_status_changed', data: { from: null, to: 'contacted' } },
      ]);
      expect((await logOf(team)).at(-1)).toEqual({
        type: 'contact.created',
        subjectType: 'contact',
        subjectId: String(contact.id),
        payload: {},
      });
    });

    it('fills the defaults: lead status new, empty lists, nulls', async () => {
      const contact = await newContact(team, { name: 'Only A Name' });
      expect(contact).toMatchObject({
        email: null,
        phone: null,
        company: null,
        role: null,
        networks: [],
        tags: [],
        groupIds: [],
        leadStatus: 'new',
        notes: null,
        userId: null,
      });
    });

    it('refuses bad fields, naming each, and stores nothing', async () => {
      const own = await ctx.newTeam(team.owner);
      const res = await post(own.owner.token, {
        team_id: own.id,
        name: '   ',
        email: 'not-an-email',
        leadStatus: 'hot',
        tags: ['a', 'a'],
        networks: [{ network: 'insta gram', handle: 'x' }],
        colour: 'red',
      });
      expectValidationPaths(res, [
        '/body/name',
        '/body/email',
        '/body/leadStatus',
        '/body/tags',
        '/body/networks/0/network',
        '/body/colour',
      ]);
      expectValidationPaths(await post(own.owner.token, { name: 'No team' }), ['/body/teamId']);
      expectValidationPaths(await post(own.owner.token, { team_id: own.id }), ['/body/name']);
      expectValidationPaths(await post(own.owner.token, { team_id: own.id, name: 'x\u0000y' }), [
        '/body/name',
      ]);
      expectValidationPaths(
        await post(own.owner.token, {
          team_id: own.id,
          name: 'Handles',
          networks: [
            { network: 'instagram', handle: '@' },
            { network: 'instagram', handle: 'maya' },
            { network: 'Instagram', handle: '@MAYA' },
          ],
        }),
        ['/body/networks/0/handle', '/body/networks/2/handle'],
      );
      expectValidationPaths(
        await post(own.owner.token, { team_id: own.id, name: 'Phone', phone: '030 123456' }),
        ['/body/phone'],
      );
      expect(await contactCount(own)).toBe(0);
    });

    it('answers 404 for a team the caller is not in', async () => {
      const outsider = await ctx.newUser();
      const res = await post(outsider.token, { team_id: team.id, name: 'Sneaky' });
      expect(res.statusCode).toBe(404);
    });
  });

  describe('uniqueness', () => {
    it('refuses the same e-mail twice in a team (any case) with 409, on create and patch, changing nothing', async () => {
      const own = await ctx.newTeam(team.owner);
      const first = await newContact(own, { email: 'dup@example.com' });
      const before = await contactCount(own);
      expectConflict(
        await post(own.owner.token, { team_id: own.id, name: 'Twin', email: 'DUP@example.com' }),
      );
      expect(await contactCount(own)).toBe(before);
      const second = await newContact(own, { name: 'Other', email: 'other@example.com' });
      expectConflict(await patch(second.id, own.owner.token, { email: 'Dup@Example.com', company: 'X' }));
      expect((await get(`/api/v1/contacts/${second.id}`, own.owner.token)).json()).toEqual(second);
      expect(await eventsOf(second.id)).toHaveLength(2);
      // Another team may hold the same address.
      const elsewhere = await ctx.newTeam(team.owner);
      expect((await newContact(elsewhere, { email: 'dup@example.com' })).email).toBe('dup@example.com');
      expect(first.email).toBe('dup@example.com');
    });

    it('refuses a handle another contact of the team holds (case and @ aside) with 409, changing nothing', async () => {
      const own = await ctx.newTeam(team.owner);
      await newContact(own, { networks: [{ network: 'instagram', handle: 'maya' }] });
      const res = await post(own.owner.token, {
        team_id: own.id,
        name: 'Copycat',
        networks: [
          { network: 'tiktok', handle: 'fresh' },
          { network: 'INSTAGRAM', handle: '@Maya' },
        ],
      });
      expectConflict(res);
      expect(res.json().error).toContain('@Maya');
      expect(await contactCount(own)).toBe(1);
      const other = await newContact(own, {
        name: 'Other',
        networks: [{ network: 'tiktok', handle: 'fresh' }],
      });
      expectConflict(
        await patch(other.id, own.owner.token, { networks: [{ network: 'instagram', handle: 'MAYA' }] }),
      );
      expect((await get(`/api/v1/contacts/${other.id}`, own.owner.token)).json()).toEqual(other);
      // The same handle on another network is someone else.
      const third = await newContact(own, { name: 'Third', networks: [{ network: 'x', handle: 'maya' }] });
      expect(third.networks).toEqual([{ network: 'x', handle: 'maya' }]);
    });
  });

  describe('groups and linked users', () => {
    it('refuses groupIds of another team (400) and changes nothing', async () => {
      const other = await ctx.newTeam(team.owner);
      const foreign = await newGroup(other, 'Theirs');
      const own = await newGroup(team, 'Ours');
      const before = await contactCount(team);
      const res = await post(team.owner.token, {
        team_id: team.id,
        name: 'Grouped',
        groupIds: [own, foreign],
      });
      expectValidationPaths(res, ['/body/groupIds']);
      expect(res.json().details[0].message).toContain(String(foreign));
      expect(await contactCount(team)).toBe(before);
    });

    it('links only users the caller may know; others and unknown ids are refused alike', async () => {
      const stranger = await ctx.newUser();
      const discoverable = await ctx.newUser();
      await ctx.database.db
        .update(users)
        .set({ preferences: { discoverable: true } })
        .where(eq(users.id, discoverable.id));
      const refuse = async (userId: string) => {
        const res = await post(team.owner.token, { team_id: team.id, name: 'Linked', userId });
        expectValidationPaths(res, ['/body/userId']);
        return res.json().details[0].message;
      };
      const hidden = await refuse(stranger.id);
      expect(await refuse('00000000-0000-7000-8000-000000000000')).toBe(hidden);
      expect((await newContact(team, { name: 'Found', userId: discoverable.id })).userId).toBe(
        discoverable.id,
      );
      // A key links members of its team.
      const key = await ctx.newApiKey(team, ['contacts:write']);
      expect((await newContact(team, { name: 'Member', userId: member.id }, key)).userId).toBe(member.id);
    });
  });

  describe('patch', () => {
    it('changes only the fields sent, records which, and moves the lead status with its own event', async () => {
      const group = await newGroup(team, 'Patchers');
      const contact = await newContact(team, {
        name: 'Patch Me',
        company: 'Old Co',
        tags: ['a'],
        networks: [{ network: 'instagram', handle: 'patchme' }],
      });
      clock.advance(60_000);
      const res = await patch(contact.id, team.owner.token, {
        company: null,
        tags: ['b', 'c'],
        groupIds: [group],
        networks: [{ network: 'soundcloud', handle: 'patch-me' }],
        leadStatus: 'qualified',
        notes: 'Wants a remix',
        phone: '030 1234567',
        phoneCountry: 'de',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        ...contact,
        company: null,
        tags: ['b', 'c'],
        groupIds: [group],
        networks: [{ network: 'soundcloud', handle: 'patch-me' }],
        leadStatus: 'qualified',
        notes: 'Wants a remix',
        phone: '+49301234567',
        updatedAt: '2031-03-01T10:01:00.000Z',
      });
      expect((await eventsOf(contact.id)).slice(2)).toEqual([
        { kind: 'updated', data: { fields: ['phone', 'company', 'networks', 'tags', 'groupIds'] } },
        { kind: 'lead_status_changed', data: { from: 'new', to: 'qualified' } },
        { kind: 'notes_changed', data: { notes: 'Wants a remix' } },
      ]);
      expect((await logOf(team)).at(-1)).toMatchObject({
        type: 'contact.updated',
        payload: { fields: ['phone', 'company', 'networks', 'tags', 'groupIds', 'leadStatus', 'notes'] },
      });
      // The old handle is free again.
      const resolved = await get(
        `/api/v1/contacts/resolve?teamId=${team.id}&network=soundcloud&handle=PATCH-ME`,
        team.owner.token,
      );
      expect(resolved.json().id).toBe(contact.id);
    });

    it('writes nothing for a patch that changes no value', async () => {
      const contact = await newContact(team, { name: 'Same', tags: ['x'] });
      clock.advance(1000);
      const res = await patch(contact.id, team.owner.token, { name: 'Same', tags: ['x'] });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(contact);
      expect(await eventsOf(contact.id)).toHaveLength(2);
    });

    it('refuses an empty or bad patch and answers 404 for a missing or hidden contact', async () => {
      const contact = await newContact(team, { name: 'Strict' });
      expect((await patch(contact.id, team.owner.token, {})).statusCode).toBe(400);
      expectValidationPaths(await patch(contact.id, team.owner.token, { name: null }), ['/body/name']);
      expectValidationPaths(await patch(contact.id, team.owner.token, { team_id: team.id }), [
        '/body/team_id',
      ]);
      expectValidationPaths(await patch(contact.id, team.owner.token, { phoneCountry: 'DE' }), [
        '/body/phoneCountry',
      ]);
      expect((await get(`/api/v1/contacts/${contact.id}`, team.owner.token)).json()).toEqual(contact);
      expect((await patch(2_147_483_647, team.owner.token, { name: 'x' })).statusCode).toBe(404);
      const outsider = await ctx.newUser();
      expect((await patch(contact.id, outsider.token, { name: 'x' })).statusCode).toBe(404);
      expect((await get(`/api/v1/contacts/${contact.id}`, outsider.token)).statusCode).toBe(404);
      expect((await get('/api/v1/contacts/abc', team.owner.token)).statusCode).toBe(400);
    });
  });

  describe('delete', () => {
    it('deletes the contact and its events, records it, and unlinks financial entries', async () => {
      const contact = await newContact(team, { name: 'Gone Soon' });
      const entry = await ctx.request({
        method: 'POST',
        url: '/api/v1/financials/',
        token: team.owner.token,
        payload: { teamId: team.id, isIncome: true, amount: 10, contactId: contact.id },
      });
      expect(entry.statusCode, entry.body).toBe(201);
      const del = () =>
        ctx.request({ method: 'DELETE', url: `/api/v1/contacts/${contact.id}`, token: team.owner.token });
      expect((await del()).statusCode).toBe(204);
      expect((await del()).statusCode).toBe(404);
      expect((await get(`/api/v1/contacts/${contact.id}`, team.owner.token)).statusCode).toBe(404);
      const events = await ctx.database.db
        .select()
        .from(contactEvents)
        .where(eq(contactEvents.contactId, contact.id));
      expect(events).toEqual([]);
      const [stored] = await ctx.database.db
        .select({ contactId: financialEntries.contactId })
        .from(financialEntries)
        .where(eq(financialEntries.id, entry.json().id));
      expect(stored!.contactId).toBeNull();
      expect((await logOf(team)).at(-1)).toEqual({
        type: 'contact.deleted',
        subjectType: 'contact',
        subjectId: String(contact.id),
        payload: { name: 'Gone Soon' },
      });
    });
  });

  describe('API keys', () => {
    it('read with any key of the team; writes need contacts:write; another team key gets 404', async () => {
      const contact = await newContact(team, { name: 'Keyed' });
      const readOnly = await ctx.newApiKey(team, ['tracks:write']);
      expect((await get(`/api/v1/contacts/${contact.id}`, readOnly)).statusCode).toBe(200);
      expect((await get(`/api/v1/contacts/?teamId=${team.id}`, readOnly)).statusCode).toBe(200);
      const refused = await patch(contact.id, readOnly, { name: 'No' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('insufficient_scope');
      const other = await ctx.newTeam(team.owner);
      const foreign = await ctx.newApiKey(other, ['contacts:write']);
      expect((await get(`/api/v1/contacts/${contact.id}`, foreign)).statusCode).toBe(404);
      expect((await patch(contact.id, foreign, { name: 'No' })).statusCode).toBe(404);
      expect((await post(foreign, { team_id: team.id, name: 'No' })).statusCode).toBe(404);
    });
  });
});
