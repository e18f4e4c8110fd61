import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TEST_SECRETS, useTestContext } from '../../../test/helpers/context.ts';
import { webhookEndpoints } from '../../db/schema/index.ts';
import { EVENT_TYPE_NAMES } from './event-types.ts';
import { newEndpoint } from './fixtures/endpoints.ts';
import { endpointSecretBox } from './webhooks.services.ts';

const ctx = useTestContext();

const WHSEC = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

describe('event types', () => {
  it('lists every type with a description and an example {type, timestamp, data} payload', async () => {
    const team = await ctx.newTeam();
    const res = await ctx.request({
      method: 'GET',
      url: '/api/v1/webhooks/event-types',
      token: team.owner.token,
    });
    expect(res.statusCode).toBe(200);
    const items = res.json().items as {
      type: string;
      description: string;
      examplePayload: { data: Record<string, unknown> };
      dataSchema: Record<string, unknown>;
    }[];
    expect(items.map((i) => i.type)).toEqual([
      'financial.entry.created',
      'financial.entry.updated',
      'financial.entry.deleted',
      'financial.import.completed',
      'booking.created',
      'booking.updated',
      'booking.cancelled',
      'camp.rsvp.updated',
      'webhook.test',
      ...EVENT_TYPE_NAMES.filter((type) =>
        /^(track|version|stem|comment|review|music_tool|album|share_link)\./.test(type),
      ),
    ]);
    for (const item of items) {
      expect(item.description.length).toBeGreaterThan(10);
      expect(item.examplePayload).toEqual({
        type: item.type,
        timestamp: expect.any(String),
        data: expect.anything(),
      });
      expect(item.dataSchema).toMatchObject({ type: 'object', properties: expect.any(Object) });
    }
    const created = items.find((i) => i.type === 'financial.entry.created')!;
    expect(Object.keys(created.examplePayload.data).sort()).toEqual(
      [
        'id',
        'teamId',
        'isIncome',
        'amount',
        'currency',
        'occurredOn',
        'category',
        'description',
        'contactId',
        'status',
        'createdAt',
        'updatedAt',
      ].sort(),
    );
  });
});

describe('creating an endpoint', () => {
  it('answers 201 with the secret once, stores it sealed, and never shows it again', async () => {
    const team = await ctx.newTeam();
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v1/webhooks/',
      token: team.owner.token,
      payload: {
        url: 'https://hooks.example.com/money',
        teamId: team.id,
        description: 'Accounting',
        eventTypes: ['financial.entry.created', 'financial.entry.created', 'booking.created'],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      teamId: team.id,
      organisationId: null,
      url: 'https://hooks.example.com/money',
      description: 'Accounting',
      eventTypes: ['financial.entry.created', 'booking.created'],
      enabled: true,
      failingSince: null,
      disabledAt: null,
      previousSecretExpiresAt: null,
    });
    expect(created.secret).toMatch(WHSEC);
    const keyBytes = Buffer.from(created.secret.slice('whsec_'.length), 'base64').length;
    expect(keyBytes).toBeGreaterThanOrEqual(24);
    expect(keyBytes).toBeLessThanOrEqual(32);

    const [row] = await ctx.database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, created.id));
    expect(row!.secret).not.toContain(created.secret.slice(6));
    expect(row!.secret).not.toContain('whsec_');
    expect(endpointSecretBox(TEST_SECRETS).open(row!.secret)).toBe(created.secret);

    const list = await ctx.request({
      method: 'GET',
      url: `/api/v1/webhooks/?teamId=${team.id}`,
      token: team.owner.token,
    });
    expect(list.json().items).toHaveLength(1);
    expect(list.json().items[0]).not.toHaveProperty('secret');
    expect(list.body).not.toContain(created.secret);
  });

  it('stores the URL in the normal form of the URL parser', async () => {
    const team = await ctx.newTeam();
    const endpoint = await newEndpoint(ctx, team, { url: 'HTTPS://Hooks.Example.COM:443/a/../b?x=1' });
    expect(endpoint.url).toBe('https://hooks.example.com/b?x=1');
  });

  it('refuses bad URLs, unknown event types and unknown fields with 400, and creates nothing', async () => {
    const team = await ctx.newTeam();
    const bad: [unknown, string][] = [
      [{ url: 'not a url' }, '/body/url'],
      [{ url: 'ftp://example.com/x' }, '/body/url'],
      [{ url: 'javascript:alert(1)' }, '/body/url'],
      [{ url: 'https://user:pass@example.com/x' }, '/body/url'],
      [{ url: 'https://:token@example.com/x' }, '/body/url'],
      [{ url: 'http://127.0.0.1/x' }, '/body/url'],
      [{ url: '' }, '/body/url'],
      [{ url: `https://example.com/${'a'.repeat(2100)}` }, '/body/url'],
      [{ url: 'https://example.com/x', eventTypes: ['financial.entry.exploded'] }, '/body/eventTypes/0'],
      [{ url: 'https://example.com/x', secret: 'whsec_mine' }, '/body/secret'],
      [{ url: 'https://example.com/x', description: 'x'.repeat(501) }, '/body/description'],
    ];
    for (const [payload, path] of bad) {
      const res = await ctx.request({
        method: 'POST',
        url: '/api/v1/webhooks/',
        token: team.owner.token,
        payload: { teamId: team.id, ...(payload as object) },
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().details.map((d: { path: string }) => d.path)).toContain(path);
    }
    const rows = await ctx.database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.teamId, team.id));
    expect(rows).toEqual([]);
  });

  it('needs teamId with a session, and puts a key endpoint in the key team', async () => {
    const team = await ctx.newTeam();
    const noTeam = await ctx.request({
      method: 'POST',
      url: '/api/v1/webhooks/',
      token: team.owner.token,
      payload: { url: 'https://example.com/x' },
    });
    expect(noTeam.statusCode).toBe(400);
    expect(noTeam.json().details).toEqual([
      { path: '/body/teamId', message: 'is required with a session token' },
    ]);

    const key = await ctx.newApiKey(team, ['webhooks:write']);
    const byKey = await ctx.request({
      method: 'POST',
      url: '/api/v1/webhooks/',
      token: key,
      payload: { url: 'https://example.com/by-key' },
    });
    expect(byKey.statusCode, byKey.body).toBe(201);
    expect(byKey.json().teamId).toBe(team.id);

    const other = await ctx.newTeam();
    const elsewhere = await ctx.request({
      method: 'POST',
      url: '/api/v1/webhooks/',
      token: key,
      payload: { url: 'https://example.com/x', teamId: other.id },
    });
    expect(elsewhere.statusCode).toBe(404);
  });

  it('lets owners and admins register endpoints, not plain members (403)', async () => {
    const team = await ctx.newTeam();
    const admin = await ctx.addMember(team, 'admin');
    const member = await ctx.addMember(team, 'member');
    const post = (token: string) =>
      ctx.request({
        method: 'POST',
        url: '/api/v1/webhooks/',
        token,
        payload: { url: 'https://example.com/x', teamId: team.id },
      });
    expect((await post(admin.token)).statusCode).toBe(201);
    const refused = await post(member.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('forbidden');
    // Members still read the team's endpoints.
    const list = await ctx.request({
      method: 'GET',
      url: `/api/v1/webhooks/?teamId=${team.id}`,
      token: member.token,
    });
    expect(list.json().items).toHaveLength(1);
  });
});

describe('listing endpoints', () => {
  it('pages newest first; without teamId a session sees every team it is in, a key its own', async () => {
    const owner = await ctx.newUser();
    const first = await ctx.newTeam(owner);
    const second = await ctx.newTeam(owner);
    const stranger = await ctx.newTeam();
    const a = await newEndpoint(ctx, first, { url: 'https://example.com/a' });
    const b = await newEndpoint(ctx, second, { url: 'https://example.com/b' });
    const c = await newEndpoint(ctx, first, { url: 'https://example.com/c' });
    await newEndpoint(ctx, stranger, { url: 'https://example.com/not-mine' });

    const all = await ctx.request({ method: 'GET', url: '/api/v1/webhooks/?limit=2', token: owner.token });
    expect(all.json().items.map((e: { id: number }) => e.id)).toEqual([c.id, b.id]);
    const rest = await ctx.request({
      method: 'GET',
      url: `/api/v1/webhooks/?limit=2&cursor=${all.json().nextCursor}`,
      token: owner.token,
    });
    expect(rest.json()).toEqual({ items: [expect.objectContaining({ id: a.id })], nextCursor: null });

    const oneTeam = await ctx.request({
      method: 'GET',
      url: `/api/v1/webhooks?teamId=${first.id}`,
      token: owner.token,
    });
    expect(oneTeam.json().items.map((e: { id: number }) => e.id)).toEqual([c.id, a.id]);

    const key = await ctx.newApiKey(second);
    const byKey = await ctx.request({ method: 'GET', url: '/api/v1/webhooks/', token: key });
    expect(byKey.json().items.map((e: { id: number }) => e.id)).toEqual([b.id]);
    const keyElsewhere = await ctx.request({
      method: 'GET',
      url: `/api/v1/webhooks/?teamId=${first.id}`,
      token: key,
    });
    expect(keyElsewhere.statusCode).toBe(404);
  });

  it('answers 404 for an organisation the caller is not a member of, and 400 with both filters', async () => {
    const team = await ctx.newTeam();
    const org = await ctx.request({
      method: 'GET',
      url: '/api/v1/webhooks/?organisationId=1',
      token: team.owner.token,
    });
    expect(org.statusCode).toBe(404);
    expect(org.json().code).toBe('not_found');
    const both = await ctx.request({
      method: 'GET',
      url: `/api/v1/webhooks/?organisationId=1&teamId=${team.id}`,
      token: team.owner.token,
    });
    expect(both.statusCode).toBe(400);
  });
});

describe('changing an endpoint', () => {
  it('changes url, description and event types; null clears the description', async () => {
    const team = await ctx.newTeam();
    const endpoint = await newEndpoint(ctx, team, { description: 'Old' });
    const res = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/webhooks/${endpoint.id}`,
      token: team.owner.token,
      payload: { url: 'https://new.example.com/in', description: null, eventTypes: ['booking.created'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      url: 'https://new.example.com/in',
      description: null,
      eventTypes: ['booking.created'],
    });
    expect(res.json()).not.toHaveProperty('secret');

    const all = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/webhooks/${endpoint.id}`,
      token: team.owner.token,
      payload: { eventTypes: [] },
    });
    expect(all.json().eventTypes).toEqual([]);
  });

  it('refuses a private literal URL, an empty body and unknown fields with 400 and keeps the endpoint', async () => {
    const team = await ctx.newTeam();
    const endpoint = await newEndpoint(ctx, team);
    for (const payload of [
      { url: 'http://[::1]/x' },
      {},
      { enabled: true, colour: 'red' },
      { rotateSecret: 'yes' },
    ]) {
      const res = await ctx.request({
        method: 'PATCH',
        url: `/api/v1/webhooks/${endpoint.id}`,
        token: team.owner.token,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const list = await ctx.request({
      method: 'GET',
      url: `/api/v1/webhooks/?teamId=${team.id}`,
      token: team.owner.token,
    });
    expect(list.json().items[0].url).toBe(endpoint.url);
  });

  it('rotates the secret: the new one is answered once, the old one stays for 24 hours', async () => {
    const team = await ctx.newTeam();
    const endpoint = await newEndpoint(ctx, team);
    const res = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/webhooks/${endpoint.id}`,
      token: team.owner.token,
      payload: { rotateSecret: true },
    });
    expect(res.statusCode).toBe(200);
    const rotated = res.json();
    expect(rotated.secret).toMatch(WHSEC);
    expect(rotated.secret).not.toBe(endpoint.secret);
    const window =
      new Date(rotated.previousSecretExpiresAt).getTime() - new Date(rotated.updatedAt).getTime();
    expect(window).toBe(24 * 60 * 60 * 1000);
    const [row] = await ctx.database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint.id));
    const box = endpointSecretBox(TEST_SECRETS);
    expect(box.open(row!.secret)).toBe(rotated.secret);
    expect(box.open(row!.previousSecret!)).toBe(endpoint.secret);
  });

  it('disables and re-enables; re-enabling clears disabledAt and failingSince', async () => {
    const team = await ctx.newTeam();
    const endpoint = await newEndpoint(ctx, team);
    const patch = (payload: object) =>
      ctx.request({
        method: 'PATCH',
        url: `/api/v1/webhooks/${endpoint.id}`,
        token: team.owner.token,
        payload,
      });
    const off = await patch({ enabled: false });
    expect(off.json()).toMatchObject({ enabled: false, disabledAt: expect.any(String) });
    await ctx.database.db
      .update(webhookEndpoints)
      .set({ failingSince: new Date('2024-01-01T00:00:00Z') })
      .where(eq(webhookEndpoints.id, endpoint.id));
    const on = await patch({ enabled: true });
    expect(on.json()).toMatchObject({ enabled: true, disabledAt: null, failingSince: null });
  });

  it('lets a key with webhooks:write change its team endpoints; a plain member gets 403', async () => {
    const team = await ctx.newTeam();
    const endpoint = await newEndpoint(ctx, team);
    const key = await ctx.newApiKey(team, ['webhooks:write']);
    const byKey = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/webhooks/${endpoint.id}`,
      token: key,
      payload: { description: 'by key' },
    });
    expect(byKey.statusCode).toBe(200);
    const member = await ctx.addMember(team, 'member');
    for (const [method, url] of [
      ['PATCH', `/api/v1/webhooks/${endpoint.id}`],
      ['DELETE', `/api/v1/webhooks/${endpoint.id}`],
      ['POST', `/api/v1/webhooks/${endpoint.id}/test`],
    ] as const) {
      const res = await ctx.request({
        method,
        url,
        token: member.token,
        ...(method === 'PATCH' ? { payload: { description: 'member' } } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    const deliveries = await ctx.request({
      method: 'GET',
      url: `/api/v1/webhooks/${endpoint.id}/deliveries`,
      token: member.token,
    });
    expect(deliveries.statusCode).toBe(200);
  });
});

describe('deleting an endpoint', () => {
  it('answers 204, then 404; another team cannot see or delete it', async () => {
    const team = await ctx.newTeam();
    const endpoint = await newEndpoint(ctx, team);
    const outsider = await ctx.newTeam();
    const foreign = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/webhooks/${endpoint.id}`,
      token: outsider.owner.token,
    });
    expect(foreign.statusCode).toBe(404);
    const missing = await ctx.request({
      method: 'DELETE',
      url: '/api/v1/webhooks/2147483647',
      token: team.owner.token,
    });
    // Another team's endpoint and a missing one read the same.
    expect(foreign.json()).toEqual(missing.json());

    const res = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/webhooks/${endpoint.id}`,
      token: team.owner.token,
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const again = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/webhooks/${endpoint.id}`,
      token: team.owner.token,
    });
    expect(again.statusCode).toBe(404);
  });
});

describe('test events', () => {
  it('answers 202 with the recorded event, and 409 on a disabled endpoint', async () => {
    const team = await ctx.newTeam();
    const endpoint = await newEndpoint(ctx, team, { eventTypes: ['booking.created'] });
    const res = await ctx.request({
      method: 'POST',
      url: `/api/v1/webhooks/${endpoint.id}/test`,
      token: team.owner.token,
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'queued',
      endpointId: endpoint.id,
      type: 'webhook.test',
      payload: {
        type: 'webhook.test',
        timestamp: expect.any(String),
        data: { endpointId: endpoint.id, message: expect.any(String) },
      },
    });
    await ctx.request({
      method: 'PATCH',
      url: `/api/v1/webhooks/${endpoint.id}`,
      token: team.owner.token,
      payload: { enabled: false },
    });
    const disabled = await ctx.request({
      method: 'POST',
      url: `/api/v1/webhooks/${endpoint.id}/test`,
      token: team.owner.token,
    });
    expect(disabled.statusCode).toBe(409);
    expect(disabled.json().code).toBe('conflict');
  });
});

it('offers exactly the known event types in the request schema', async () => {
  const team = await ctx.newTeam();
  for (const type of EVENT_TYPE_NAMES) {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v1/webhooks/',
      token: team.owner.token,
      payload: { url: 'https://example.com/x', teamId: team.id, eventTypes: [type] },
    });
    expect(res.statusCode, type).toBe(201);
  }
});
