import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TestClock, useTestContext } from '../../../test/helpers/context.ts';
import { financialEntries } from '../../db/schema/index.ts';
import { expectValidationPaths, financialHelpers } from './financials.test-support.ts';

// Late in the evening UTC: the default occurredOn is the UTC day of the injected clock.
const clock = new TestClock(Date.parse('2031-05-17T23:30:00.000Z'));
const ctx = useTestContext({ clock });
const { newEntry, newContact, eventsOf, logOf, entryCount } = financialHelpers(ctx);

const post = (token: string, payload: object) =>
  ctx.request({ method: 'POST', url: '/api/v1/financials/', token, payload });
const get = (url: string, token: string) => ctx.request({ method: 'GET', url, token });

describe('financial entries', () => {
  describe('create', () => {
    it('creates an entry with every field, and records its activity and webhook event', async () => {
      const team = await ctx.newTeam();
      const contactId = await newContact(team);
      const res = await post(team.owner.token, {
        teamId: team.id,
        isIncome: false,
        amount: 1234.5,
        currency: 'USD',
        occurredOn: '2031-02-28',
        category: 'studio',
        description: 'Mixing session',
        contactId,
        status: 'pending',
      });
      expect(res.statusCode, res.body).toBe(201);
      const entry = res.json();
      expect(entry).toEqual({
        id: expect.any(Number),
        teamId: team.id,
        isIncome: false,
        amount: 1234.5,
        currency: 'USD',
        occurredOn: '2031-02-28',
        category: 'studio',
        description: 'Mixing session',
        contactId,
        status: 'pending',
        createdAt: '2031-05-17T23:30:00.000Z',
        updatedAt: '2031-05-17T23:30:00.000Z',
      });

      const events = await eventsOf(team);
      expect(events).toHaveLength(1);
      expect(events[0]!.type).toBe('financial.entry.created');
      expect(events[0]!.payload).toEqual({
        type: 'financial.entry.created',
        timestamp: '2031-05-17T23:30:00.000Z',
        data: entry,
      });
      // One event in the log, the webhook's: its payload is the `data` delivered.
      expect((await logOf(team)).filter((a) => a.subjectType !== 'contact')).toEqual([
        {
          type: 'financial.entry.created',
          subjectType: 'financial_entry',
          subjectId: String(entry.id),
          payload: entry,
        },
      ]);
    });

    it('fills the defaults: EUR, today (UTC, from the clock), confirmed, nulls', async () => {
      const team = await ctx.newTeam();
      const entry = await newEntry(team, { amount: 5 });
      expect(entry).toMatchObject({
        currency: 'EUR',
        occurredOn: '2031-05-17',
        status: 'confirmed',
        category: null,
        description: null,
        contactId: null,
      });
    });

    it('stores amounts exactly as NUMERIC(14,2), and answers them as the same numbers', async () => {
      const team = await ctx.newTeam();
      const amounts = [0.01, 0.1, 0.29, 0.57, 1.13, 19.99, 1_000_000.07, 999_999_999_999.99];
      for (const amount of amounts) {
        const entry = await newEntry(team, { amount });
        expect(entry.amount).toBe(amount);
        const [stored] = await ctx.database.db
          .select({ amount: sql<string>`${financialEntries.amount}::text` })
          .from(financialEntries)
          .where(eq(financialEntries.id, entry.id));
        expect(stored!.amount).toBe(amount.toFixed(2));
      }
    });

    it('refuses amounts that are not above 0 with at most two decimals, or are absurdly large', async () => {
      const team = await ctx.newTeam();
      for (const amount of [0, -1, -0.5, 0.001, 1e-7, 1.005, 12.345, 1e12, 1e300, '10', null, true]) {
        const res = await post(team.owner.token, { teamId: team.id, isIncome: true, amount });
        expectValidationPaths(res, ['/body/amount']);
      }
      expect(await entryCount(team)).toBe(0);
      expect(await eventsOf(team)).toEqual([]);
    });

    it('refuses bad fields and names each of them at once', async () => {
      const team = await ctx.newTeam();
      const res = await post(team.owner.token, {
        teamId: team.id,
        isIncome: 'yes',
        amount: 0.001,
        currency: 'eur',
        occurredOn: '2031-02-30',
        status: 'paid',
        contactId: 0,
        colour: 'red',
      });
      expectValidationPaths(res, [
        '/body/isIncome',
        '/body/amount',
        '/body/currency',
        '/body/occurredOn',
        '/body/status',
        '/body/contactId',
        '/body/colour',
      ]);
      for (const currency of ['EURO', 'E1R', 'EU', '€UR']) {
        expectValidationPaths(
          await post(team.owner.token, { teamId: team.id, isIncome: true, amount: 1, currency }),
          ['/body/currency'],
        );
      }
      expectValidationPaths(await post(team.owner.token, { teamId: team.id, amount: 1 }), ['/body/isIncome']);
      expect(await entryCount(team)).toBe(0);
    });

    it("refuses a contactId that is not a contact of the entry's team (400), on create, patch and import", async () => {
      const team = await ctx.newTeam();
      const other = await ctx.newTeam(team.owner);
      const own = await newContact(team);
      const foreign = await newContact(other);
      for (const contactId of [foreign, 2_147_483_647]) {
        expectValidationPaths(
          await post(team.owner.token, { teamId: team.id, isIncome: true, amount: 1, contactId }),
          ['/body/contactId'],
        );
      }
      const entry = await newEntry(team, { contactId: own });
      const patch = (contactId: number | null) =>
        ctx.request({
          method: 'PATCH',
          url: `/api/v1/financials/${entry.id}`,
          token: team.owner.token,
          payload: { contactId },
        });
      expectValidationPaths(await patch(foreign), ['/body/contactId']);
      expect((await get(`/api/v1/financials/${entry.id}`, team.owner.token)).json()).toEqual(entry);
      expect((await patch(null)).json().contactId).toBeNull();
      const imported = await ctx.request({
        method: 'POST',
        url: '/api/v1/financials/import',
        token: team.owner.token,
        payload: {
          teamId: team.id,
          entries: [
            { isIncome: true, amount: 1, contactId: own },
            { isIncome: true, amount: 2, contactId: foreign },
            { isIncome: true, amount: 3 },
            { isIncome: true, amount: 4, contactId: 2_147_483_647 },
          ],
        },
      });
      expectValidationPaths(imported, ['/body/entries/1/contactId', '/body/entries/3/contactId']);
      expect(await entryCount(team)).toBe(1);
    });

    it('keeps an entry when its contact is deleted, with contactId null', async () => {
      const team = await ctx.newTeam();
      const contactId = await newContact(team);
      const entry = await newEntry(team, { contactId });
      const res = await ctx.request({
        method: 'DELETE',
        url: `/api/v1/contacts/${contactId}`,
        token: team.owner.token,
      });
      expect(res.statusCode).toBe(204);
      const after = await get(`/api/v1/financials/${entry.id}`, team.owner.token);
      expect(after.json()).toMatchObject({ id: entry.id, contactId: null });
    });
  });

  describe('read, change and delete one (extensions)', () => {
    it('reads an entry; another team member or an outsider gets 404', async () => {
      const team = await ctx.newTeam();
      const entry = await newEntry(team, { amount: 12.3, category: 'gig' });
      const res = await get(`/api/v1/financials/${entry.id}`, team.owner.token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(entry);
      const member = await ctx.addMember(team, 'member');
      expect((await get(`/api/v1/financials/${entry.id}`, member.token)).statusCode).toBe(200);
      const outsider = await ctx.newUser();
      expect((await get(`/api/v1/financials/${entry.id}`, outsider.token)).statusCode).toBe(404);
      expect((await get('/api/v1/financials/2147483647', team.owner.token)).statusCode).toBe(404);
      expect((await get('/api/v1/financials/abc', team.owner.token)).statusCode).toBe(400);
    });

    it('changes the given fields only, stamps updatedAt and emits financial.entry.updated', async () => {
      const team = await ctx.newTeam();
      const entry = await newEntry(team, {
        amount: 10,
        category: 'gig',
        description: 'Club night',
        status: 'pending',
      });
      clock.advance(60_000);
      const res = await ctx.request({
        method: 'PATCH',
        url: `/api/v1/financials/${entry.id}`,
        token: team.owner.token,
        payload: { amount: 0.3, status: 'confirmed', description: null },
      });
      expect(res.statusCode, res.body).toBe(200);
      const changed = res.json();
      expect(changed).toEqual({
        ...entry,
        amount: 0.3,
        status: 'confirmed',
        description: null,
        updatedAt: new Date(Date.parse(entry.createdAt) + 60_000).toISOString(),
      });
      const events = await eventsOf(team, 'financial.entry.updated');
      expect(events.map((e) => e.payload.data)).toEqual([changed]);
      expect((await logOf(team)).at(-1)).toEqual({
        type: 'financial.entry.updated',
        subjectType: 'financial_entry',
        subjectId: String(entry.id),
        payload: changed,
      });
    });

    it('refuses an empty or bad patch and changes nothing', async () => {
      const team = await ctx.newTeam();
      const entry = await newEntry(team, { amount: 10 });
      const patch = (payload: object) =>
        ctx.request({
          method: 'PATCH',
          url: `/api/v1/financials/${entry.id}`,
          token: team.owner.token,
          payload,
        });
      expect((await patch({})).statusCode).toBe(400);
      expectValidationPaths(await patch({ amount: 10.001 }), ['/body/amount']);
      expectValidationPaths(await patch({ teamId: team.id + 1 }), ['/body/teamId']);
      expectValidationPaths(await patch({ isIncome: null, amount: 2.555 }), [
        '/body/isIncome',
        '/body/amount',
      ]);
      expect((await get(`/api/v1/financials/${entry.id}`, team.owner.token)).json()).toEqual(entry);
      expect(await eventsOf(team, 'financial.entry.updated')).toEqual([]);
    });

    it('deletes an entry (204), emits financial.entry.deleted with it, and then answers 404', async () => {
      const team = await ctx.newTeam();
      const entry = await newEntry(team, { amount: 7.77 });
      const del = () =>
        ctx.request({ method: 'DELETE', url: `/api/v1/financials/${entry.id}`, token: team.owner.token });
      const res = await del();
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect((await get(`/api/v1/financials/${entry.id}`, team.owner.token)).statusCode).toBe(404);
      expect((await del()).statusCode).toBe(404);
      const events = await eventsOf(team, 'financial.entry.deleted');
      expect(events).toHaveLength(1);
      expect(events[0]!.payload.data).toEqual(entry);
      expect((await logOf(team)).at(-1)).toMatchObject({ type: 'financial.entry.deleted', payload: entry });
    });
  });

  describe('API keys', () => {
    it('reads with any key of the team; writes need financials:write; another team key gets 404', async () => {
      const team = await ctx.newTeam();
      const entry = await newEntry(team);
      const readOnly = await ctx.newApiKey(team, ['tracks:write']);
      const writer = await ctx.newApiKey(team, ['financials:write']);
      expect((await get(`/api/v1/financials/?teamId=${team.id}`, readOnly)).statusCode).toBe(200);
      expect((await get(`/api/v1/financials/${entry.id}`, readOnly)).statusCode).toBe(200);
      const refused = await post(readOnly, { teamId: team.id, isIncome: true, amount: 1 });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('insufficient_scope');
      const created = await post(writer, { teamId: team.id, isIncome: true, amount: 1 });
      expect(created.statusCode, created.body).toBe(201);
      const logged = await logOf(team);
      expect(logged.at(-1)).toMatchObject({
        type: 'financial.entry.created',
        subjectId: String(created.json().id),
      });

      const other = await ctx.newTeam();
      const foreign = await ctx.newApiKey(other, ['financials:write']);
      expect((await get(`/api/v1/financials/${entry.id}`, foreign)).statusCode).toBe(404);
      expect((await post(foreign, { teamId: team.id, isIncome: true, amount: 1 })).statusCode).toBe(404);
      const patched = await ctx.request({
        method: 'PATCH',
        url: `/api/v1/financials/${entry.id}`,
        token: foreign,
        payload: { amount: 2 },
      });
      expect(patched.statusCode).toBe(404);
    });
  });

  describe('a failed write', () => {
    it('leaves neither the entry, its activity nor its event when the transaction rolls back', async () => {
      const team = await ctx.newTeam();
      const db = ctx.database.db;
      // The database refuses this one event: the entry written before it in the transaction must go too.
      await db.execute(
        sql.raw(`
        create function refuse_marked_event() returns trigger language plpgsql as $$
        begin
          if new.payload ->> 'description' = 'refuse me' then raise exception 'refused'; end if;
          return new;
        end $$`),
      );
      await db.execute(
        sql.raw(`
        create trigger refuse_marked_event before insert on domain_events
        for each row execute function refuse_marked_event()`),
      );
      try {
        const res = await post(team.owner.token, {
          teamId: team.id,
          isIncome: true,
          amount: 10,
          description: 'refuse me',
        });
        expect(res.statusCode).toBe(500);
        expect(await entryCount(team)).toBe(0);
        expect(await eventsOf(team)).toEqual([]);
        expect(await logOf(team)).toEqual([]);
        // The same write without the marker goes through, with its event.
        await newEntry(team, { description: 'accepted' });
        expect(await entryCount(team)).toBe(1);
        expect((await eventsOf(team)).map((e) => e.type)).toEqual(['financial.entry.created']);
      } finally {
        await db.execute(sql.raw('drop trigger refuse_marked_event on domain_events'));
        await db.execute(sql.raw('drop function refuse_marked_event'));
      }
    });
  });
});
