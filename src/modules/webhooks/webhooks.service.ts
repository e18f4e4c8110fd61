import { count } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { webhookEndpoints } from '../../db/schema/index.ts';
import { actorOf } from '../../events/actor.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import { decodeIdCursor, toPage } from '../../shared/pagination.ts';
import { MANAGERS, requireTeam, sessionUserId } from '../../shared/tenancy.ts';
import { lockOrganisation, ORGANISATION_MANAGERS, organisationRoleOf } from '../organisations/access.ts';
import { lockTeam } from '../teams/teams.repository.ts';
import type { AddressGuard } from './address-guard.ts';
import { type DeliveryRow, listDeliveries } from './deliveries.repository.ts';
import { checkEndpointUrl } from './endpoint-url.ts';
import * as repo from './endpoints.repository.ts';
import { eventTypeCatalogue, type WebhookEventType } from './event-types.ts';
import type { SecretBox } from './secret-box.ts';
import { newSigningSecret } from './signing.ts';

/** How long a rotated-out secret keeps signing beside the new one. */
const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;
/** Endpoints one team (or one organisation) may register. */
export const MAX_ENDPOINTS_PER_TEAM = 50;

type Page = { limit: number; cursor?: string | undefined };

function endpointView(row: repo.EndpointRow, now: Date) {
  const rotationLasts = row.previousSecretExpiresAt && row.previousSecretExpiresAt > now;
  return {
    id: row.id,
    teamId: row.teamId,
    organisationId: row.organisationId,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes,
    enabled: row.enabled,
    failingSince: row.failingSince,
    disabledAt: row.disabledAt,
    pausedAt: row.pausedAt,
    pausedReason: row.pausedReason,
    previousSecretExpiresAt: rotationLasts ? row.previousSecretExpiresAt : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** An attempt as the delivery log shows it: every column but the endpoint's id and the row's own update time. */
function deliveryView(row: DeliveryRow) {
  const { endpointId: _endpoint, updatedAt: _updated, ...view } = row;
  return view;
}

const distinct = (types: readonly WebhookEventType[] | undefined) => [...new Set(types ?? [])];

/**
 * Webhook endpoints of a team or an organisation: registration (the signing secret answered once), changes,
 * secret rotation, test events and the log of delivery attempts. Members read; owners and admins (and, for a
 * team's endpoints, keys with `webhooks:write`) change. Keys never see an organisation's endpoints.
 */
export class WebhooksService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly secrets: SecretBox,
    private readonly guard: AddressGuard,
    private readonly events: EventLog,
  ) {}

  eventTypes() {
    return { items: eventTypeCatalogue() };
  }

  async list(
    principal: Principal,
    query: Page & { teamId?: number | undefined; organisationId?: number | undefined },
  ) {
    if (query.organisationId !== undefined && query.teamId !== undefined) {
      throw errors.validation([
        { path: '/query/organisationId', message: 'give teamId or organisationId, not both' },
      ]);
    }
    const before = decodeIdCursor(query.cursor);
    const teamId = query.teamId ?? (principal.type === 'key' ? principal.teamId : undefined);
    let rows: repo.EndpointRow[];
    if (query.organisationId !== undefined) {
      await this.requireOrganisationRole(principal, query.organisationId, 'read');
      rows = await repo.listEndpointsOfOrganisation(this.db, query.organisationId, query.limit + 1, before);
    } else if (teamId !== undefined) {
      await requireTeam(this.db, principal, teamId);
      rows = await repo.listEndpointsOfTeams(this.db, [teamId], query.limit + 1, before);
    } else {
      rows = await repo.listEndpointsOfMember(this.db, sessionUserId(principal), query.limit + 1, before);
    }
    const page = toPage(rows, query.limit, (last) => last.id);
    const now = this.clock.now();
    return { items: page.items.map((row) => endpointView(row, now)), nextCursor: page.nextCursor };
  }

  async create(
    principal: Principal,
    input: {
      url: string;
      teamId?: number;
      organisationId?: number;
      description?: string;
      eventTypes?: WebhookEventType[];
    },
  ) {
    const owner = await this.newEndpointOwner(principal, input);
    const url = this.checkedUrl(input.url);
    const secret = newSigningSecret();
    const now = this.clock.now();
    const row = await this.db.transaction(async (tx) => {
      // Orders concurrent registrations of the owner, so the limit holds across processes.
      if ('teamId' in owner) await lockTeam(tx, owner.teamId);
      else await lockOrganisation(tx, owner.organisationId);
      const [existing] = await tx.select({ n: count() }).from(webhookEndpoints).where(repo.ownedBy(owner));
      if ((existing?.n ?? 0) >= MAX_ENDPOINTS_PER_TEAM) {
        const who = 'teamId' in owner ? 'A team' : 'An organisation';
        throw errors.conflict(`${who} may register at most ${MAX_ENDPOINTS_PER_TEAM} webhook endpoints`);
      }
      return repo.insertEndpoint(tx, {
        ...owner,
        url,
        description: input.description ?? null,
        eventTypes: distinct(input.eventTypes),
        secret: this.secrets.seal(secret),
        createdBy: principal.type === 'session' ? principal.userId : null,
        createdByKeyId: principal.type === 'key' ? principal.keyId : null,
        createdAt: now,
        updatedAt: now,
      });
    });
    return { ...endpointView(row, now), secret };
  }

  async update(
    principal: Principal,
    endpointId: number,
    input: {
      url?: string;
      description?: string | null;
      eventTypes?: WebhookEventType[];
      enabled?: boolean;
      rotateSecret?: boolean;
    },
  ) {
    const { owner } = await this.requireEndpoint(principal, endpointId, 'write');
    const url = input.url === undefined ? undefined : this.checkedUrl(input.url);
    const secret = input.rotateSecret ? newSigningSecret() : undefined;
    const now = this.clock.now();
    const row = await this.db.transaction(async (tx) => {
      const current = await repo.lockEndpoint(tx, owner, endpointId);
      if (!current) throw errors.notFound('webhook endpoint');
      const changes: Partial<repo.EndpointRow> = { updatedAt: now };
      if (url !== undefined) changes.url = url;
      if (input.description !== undefined) changes.description = input.description;
      if (input.eventTypes !== undefined) changes.eventTypes = distinct(input.eventTypes);
      if (input.enabled === true && !current.enabled) {
        Object.assign(changes, {
          enabled: true,
          disabledAt: null,
          failingSince: null,
          pausedAt: null,
          pausedReason: null,
        });
      } else if (input.enabled === false && current.enabled) {
        Object.assign(changes, { enabled: false, disabledAt: now });
      }
      if (secret !== undefined) {
        Object.assign(changes, {
          secret: this.secrets.seal(secret),
          previousSecret: current.secret,
          previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_TTL_MS),
        });
      }
      return repo.updateEndpoint(tx, owner, endpointId, changes);
    });
    if (!row) throw errors.notFound('webhook endpoint');
    return { ...endpointView(row, now), ...(secret === undefined ? {} : { secret }) };
  }

  async remove(principal: Principal, endpointId: number): Promise<void> {
    const { owner } = await this.requireEndpoint(principal, endpointId, 'write');
    if (!(await repo.deleteEndpoint(this.db, owner, endpointId))) throw errors.notFound('webhook endpoint');
  }

  /**
   * Records a `webhook.test` event about this endpoint: the delivery machinery sends it to that endpoint alone,
   * whatever its event types.
   */
  async sendTest(principal: Principal, endpointId: number) {
    const { endpoint, owner } = await this.requireEndpoint(principal, endpointId, 'write');
    if (!endpoint.enabled) {
      throw errors.conflict('The endpoint is disabled: enable it (PATCH enabled: true) before testing it');
    }
    const [event] = await this.db.transaction((tx) =>
      this.events.record(tx, {
        type: 'webhook.test',
        subject: { type: 'webhook_endpoint', id: endpointId },
        actor: actorOf(principal),
        ...owner,
        payload: { endpointId, message: 'A test event from Team Music Workspace' },
      }),
    );
    if (!event) throw errors.internal();
    return {
      id: event.id,
      status: 'queued' as const,
      endpointId,
      type: 'webhook.test' as const,
      payload: { type: event.type, timestamp: event.createdAt.toISOString(), data: event.payload },
    };
  }

  async deliveries(principal: Principal, endpointId: number, query: Page & { eventId?: string | undefined }) {
    await this.requireEndpoint(principal, endpointId, 'read');
    const rows = await listDeliveries(this.db, endpointId, {
      limit: query.limit + 1,
      before: decodeIdCursor(query.cursor),
      eventId: query.eventId,
    });
    const page = toPage(rows, query.limit, (last) => last.id);
    return { items: page.items.map(deliveryView), nextCursor: page.nextCursor };
  }

  /** A key writes to its own team (its scope is checked by the route); a member must be an owner or admin. */
  private async requireWriter(principal: Principal, teamId: number): Promise<void> {
    if (principal.type === 'key') await requireTeam(this.db, principal, teamId);
    else await requireTeam(this.db, principal, teamId, MANAGERS);
  }

  /** Who a new endpoint belongs to: the team or organisation named (exactly one), checked for the caller. */
  private async newEndpointOwner(
    principal: Principal,
    input: { teamId?: number; organisationId?: number },
  ): Promise<repo.EndpointOwner> {
    if (input.organisationId !== undefined) {
      if (input.teamId !== undefined) {
        throw errors.validation([
          { path: '/body/organisationId', message: 'give teamId or organisationId, not both' },
        ]);
      }
      await this.requireOrganisationRole(principal, input.organisationId, 'write');
      return { organisationId: input.organisationId };
    }
    const teamId = input.teamId ?? (principal.type === 'key' ? principal.teamId : undefined);
    if (teamId === undefined) {
      throw errors.validation([{ path: '/body/teamId', message: 'is required with a session token' }]);
    }
    await this.requireWriter(principal, teamId);
    return { teamId };
  }

  /** An organisation's endpoints: its members read, its owners and admins change; keys never see them (404). */
  private async requireOrganisationRole(
    principal: Principal,
    organisationId: number,
    access: 'read' | 'write',
  ) {
    if (principal.type === 'key') throw errors.notFound('organisation');
    const role = await organisationRoleOf(this.db, principal.userId, organisationId);
    if (!role) throw errors.notFound('organisation');
    if (access === 'write' && !ORGANISATION_MANAGERS.includes(role)) throw errors.forbidden();
  }

  /**
   * The endpoint, if the caller's team or (for a session) organisation owns it (404 otherwise); writes need
   * an owner or admin there (403).
   */
  private async requireEndpoint(principal: Principal, endpointId: number, access: 'read' | 'write') {
    if (principal.type === 'key') {
      const endpoint = await repo.endpointOfTeam(this.db, principal.teamId, endpointId);
      if (!endpoint) throw errors.notFound('webhook endpoint');
      return { endpoint, owner: { teamId: principal.teamId } as repo.EndpointOwner };
    }
    const found =
      (await repo.endpointOfMember(this.db, principal.userId, endpointId)) ??
      (await repo.endpointOfOrganisationMember(this.db, principal.userId, endpointId));
    if (!found) throw errors.notFound('webhook endpoint');
    if (access === 'write' && !MANAGERS.includes(found.role)) throw errors.forbidden();
    return { endpoint: found.endpoint, owner: repo.ownerOf(found.endpoint) };
  }

  private checkedUrl(raw: string): string {
    const checked = checkEndpointUrl(raw, this.guard);
    if ('problem' in checked) throw errors.validation([{ path: '/body/url', message: checked.problem }]);
    return checked.url;
  }
}
