import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestTeam, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { domainEvents, webhookEndpoints } from '../../db/schema/index.ts';
import { SCOPES } from '../../plugins/auth.ts';
import { deliverWebhooks } from '../webhooks/fixtures/deliver.ts';
import { Receiver } from '../webhooks/fixtures/receiver.ts';
import { organisationHelpers, type TestOrganisation } from './organisations.test-support.ts';

const ctx = useTestContext({ env: { WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1' } });
const { organisationWithTeam, addOrganisationMember, newCamp } = organisationHelpers(ctx);
const receiver = new Receiver();

let org: TestOrganisation;
let team: TestTeam;
let admin: TestUser;
let member: TestUser;
let teamMember: TestUser;
let teamKey: string;

beforeAll(async () => {
  await receiver.start();
  ({ organisation: org, team } = await organisationWithTeam());
  admin = await addOrganisationMember(org, 'admin');
  member = await addOrganisationMember(org, 'member');
  teamMember = await ctx.addMember(team, 'member');
  teamKey = await ctx.newApiKey(team, [...SCOPES]);
});
afterAll(async () => {
  await receiver.close();
});

const createEndpoint = (token: string, body: object) =>
  ctx.request({
    method: 'POST',
    url: '/api/v1/webhooks/',
    token,
    payload: { url: 'https://hooks.example.com/org', ...body },
  });

describe('organisation webhook endpoints', () => {
  it("are registered by the organisation's owners and admins, for the organisation", async () => {
    const res = await createEndpoint(admin.token, {
      organisationId: org.id,
      eventTypes: ['camp.rsvp.updated'],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      teamId: null,
      organisationId: org.id,
      eventTypes: ['camp.rsvp.updated'],
      secret: expect.stringMatching(/^whsec_/),
    });
    expect((await createEndpoint(org.owner.token, { organisationId: org.id })).statusCode).toBe(201);
  });

  it('are refused to plain members (403), team members, outsiders and every key (404)', async () => {
    const before = await ctx.database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.organisationId, org.id));
    const outsider = await ctx.newUser();
    const cases: [string, number][] = [
      [member.token, 403],
      [teamMember.token, 404],
      [outsider.token, 404],
      [teamKey, 404],
    ];
    for (const [token, status] of cases) {
      const res = await createEndpoint(token, { organisationId: org.id });
      expect(res.statusCode).toBe(status);
    }
    const both = await createEndpoint(org.owner.token, { organisationId: org.id, teamId: team.id });
    expect(both.statusCode).toBe(400);
    const after = await ctx.database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.organisationId, org.id));
    expect(after).toHaveLength(before.length);
  });

  it("are listed to the organisation's members only, never with the team's", async () => {
    const { organisation } = await organisationWithTeam(org.owner);
    const created = (await createEndpoint(org.owner.token, { organisationId: organisation.id })).json();
    const list = (token: string, query = `?organisationId=${organisation.id}`) =>
      ctx.request({ method: 'GET', url: `/api/v1/webhooks/${query}`, token });
    const res = await list(org.owner.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ items: [expect.objectContaining({ id: created.id })], nextCursor: null });
    expect(res.json().items[0].secret).toBeUndefined();
    const plain = await addOrganisationMember(organisation, 'member', member);
    expect((await list(plain.token)).statusCode).toBe(200);
    expect((await list(teamMember.token, `?organisationId=${org.id}`)).statusCode).toBe(404);
    expect((await list(teamKey, `?organisationId=${org.id}`)).statusCode).toBe(404);
    const teamList = await list(team.owner.token, `?teamId=${team.id}`);
    expect(teamList.json().items.every((e: { teamId: number }) => e.teamId === team.id)).toBe(true);
  });

  it('are changed and deleted by owners and admins; members read deliveries; keys see none of it', async () => {
    const endpoint = (await createEndpoint(org.owner.token, { organisationId: org.id })).json();
    const patch = (token: string) =>
      ctx.request({
        method: 'PATCH',
        url: `/api/v1/webhooks/${endpoint.id}`,
        token,
        payload: { description: 'Bookings desk' },
      });
    expect((await patch(member.token)).statusCode).toBe(403);
    expect((await patch(teamMember.token)).statusCode).toBe(404);
    expect((await patch(teamKey)).statusCode).toBe(404);
    const changed = await patch(admin.token);
    expect(changed.json()).toMatchObject({
      id: endpoint.id,
      description: 'Bookings desk',
      organisationId: org.id,
    });
    const rotated = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/webhooks/${endpoint.id}`,
      token: admin.token,
      payload: { rotateSecret: true },
    });
    expect(rotated.json().secret).toMatch(/^whsec_/);

    const log = await ctx.request({
      method: 'GET',
      url: `/api/v1/webhooks/${endpoint.id}/deliveries`,
      token: member.token,
    });
    expect(log.json()).toEqual({ items: [], nextCursor: null });
    const byKey = await ctx.request({
      method: 'GET',
      url: `/api/v1/webhooks/${endpoint.id}/deliveries`,
      token: teamKey,
    });
    expect(byKey.statusCode).toBe(404);

    const test = await ctx.request({
      method: 'POST',
      url: `/api/v1/webhooks/${endpoint.id}/test`,
      token: admin.token,
    });
    expect(test.statusCode).toBe(202);
    const [event] = await ctx.database.db
      .select()
      .from(domainEvents)
      .where(eq(domainEvents.id, test.json().id));
    expect(event).toMatchObject({ organisationId: org.id, teamId: null, type: 'webhook.test' });

    const remove = (token: string) =>
      ctx.request({ method: 'DELETE', url: `/api/v1/webhooks/${endpoint.id}`, token });
    expect((await remove(member.token)).statusCode).toBe(403);
    expect((await remove(teamKey)).statusCode).toBe(404);
    expect((await remove(admin.token)).statusCode).toBe(204);
    expect((await remove(admin.token)).statusCode).toBe(404);
  });

  it('receive camp.rsvp.updated, signed, when someone answers a camp', async () => {
    const { organisation, team: t } = await organisationWithTeam();
    const endpoint = (
      await createEndpoint(organisation.owner.token, {
        organisationId: organisation.id,
        url: receiver.url,
        eventTypes: ['camp.rsvp.updated'],
      })
    ).json();
    const camp = await newCamp(organisation);
    const writer = await ctx.addMember(t, 'member');
    const answer = await ctx.request({
      method: 'POST',
      url: `/api/v1/organisations/${organisation.id}/camps/${camp.id}/rsvp`,
      token: writer.token,
      payload: { status: 'accepted' },
    });
    expect(answer.statusCode).toBe(200);
    await deliverWebhooks(ctx);
    await receiver.waitFor(1);
    const [request] = receiver.received;
    const payload = new Webhook(endpoint.secret).verify(
      request!.body,
      request!.headers as Record<string, string>,
    );
    expect(payload).toEqual({
      type: 'camp.rsvp.updated',
      timestamp: expect.any(String),
      data: {
        organisationId: organisation.id,
        campId: camp.id,
        userId: writer.id,
        status: 'accepted',
        previousStatus: null,
        createdAt: answer.json().createdAt,
        updatedAt: answer.json().updatedAt,
      },
    });
  });
});
