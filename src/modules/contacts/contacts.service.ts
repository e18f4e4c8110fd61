import type { Db, DbTransaction } from '../../db/client.ts';
import type { LeadStatus } from '../../db/schema/index.ts';
import { actorOf } from '../../events/actor.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { isKeyInt, isKeyText } from '../../shared/cursor-values.ts';
import { type ErrorDetail, errors } from '../../shared/errors.ts';
import { decodeCursor, toPage, withTotal } from '../../shared/pagination.ts';
import { requireTeam } from '../../shared/tenancy.ts';
import { requireContact } from './contact-access.ts';
import { changesOf, creationEvents } from './contact-changes.ts';
import { recordContactDeleted, recordContactWrite } from './contact-events.ts';
import { type ContactInput, type HandleValue, normaliseInput } from './contact-input.ts';
import * as repo from './contacts.repository.ts';
import { mayKnowUser } from './known-people.ts';
import { rethrowAsConflict } from './unique-conflicts.ts';

export type ContactListInput = repo.ContactFilter & {
  limit: number;
  cursor?: string | undefined;
  count?: boolean;
};

const isContactKey = (value: unknown): value is repo.ContactKey =>
  Array.isArray(value) && value.length === 2 && isKeyText(value[0]) && isKeyInt(value[1]);

const view = ({ nameKey: _, ...contact }: repo.ContactRow & { nameKey?: string }) => contact;

/** A team's contacts: list, read, create, change and delete, each write with its timeline events and its event in the log. */
export class ContactsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventLog,
  ) {}

  /** A page of the team's contacts, alphabetically. */
  async list(principal: Principal, input: ContactListInput) {
    const { limit, cursor, count, ...filter } = input;
    await requireTeam(this.db, principal, filter.teamId);
    const rows = await repo.listContacts(this.db, filter, decodeCursor(cursor, isContactKey), limit + 1);
    const page = toPage(rows, limit, repo.keyOf);
    return withTotal({ items: page.items.map(view), nextCursor: page.nextCursor }, count, () =>
      repo.countContacts(this.db, filter),
    );
  }

  async get(principal: Principal, contactId: number) {
    return requireContact(this.db, principal, contactId);
  }

  async create(principal: Principal, input: ContactInput & { teamId: number; name: string }) {
    const { teamId, ...fields } = input;
    await requireTeam(this.db, principal, teamId);
    const normalised = normaliseInput(fields);
    if (normalised.problems.length > 0) throw errors.validation(normalised.problems);
    const values: repo.ContactValues = {
      name: fields.name.trim(),
      email: null,
      phone: null,
      company: null,
      role: null,
      tags: [],
      leadStatus: 'new',
      notes: null,
      userId: null,
      ...normalised.scalars,
    };
    const now = this.clock.now();
    return this.db
      .transaction(async (tx) => {
        await this.checkReferences(tx, principal, teamId, {
          groupIds: normalised.groupIds,
          userId: normalised.scalars.userId,
          handles: normalised.handles,
        });
        const contactId = await repo.insertContact(tx, values, { teamId, actor: actorOf(principal), now });
        await repo.insertHandles(tx, teamId, contactId, normalised.handles ?? []);
        await repo.insertGroupMembers(tx, contactId, normalised.groupIds ?? []);
        await recordContactWrite(tx, this.events, principal, {
          teamId,
          contactId,
          action: 'created',
          events: creationEvents(values),
          now,
        });
        return (await repo.contactOfTeam(tx, teamId, contactId))!;
      })
      .catch(rethrowAsConflict);
  }

  /** Changes the fields the patch gives; a patch that changes nothing writes nothing. */
  async update(principal: Principal, contactId: number, patch: ContactInput) {
    const { teamId } = await requireContact(this.db, principal, contactId);
    const normalised = normaliseInput(patch);
    if (normalised.problems.length > 0) throw errors.validation(normalised.problems);
    const now = this.clock.now();
    return this.db
      .transaction(async (tx) => {
        const current = await repo.contactOfTeam(tx, teamId, contactId, true);
        if (!current) throw errors.notFound('contact');
        const changes = changesOf(current, normalised);
        if (changes.fields.length === 0) return current;
        await this.checkReferences(
          tx,
          principal,
          teamId,
          {
            groupIds: changes.groupsChanged ? normalised.groupIds : undefined,
            userId: changes.fields.includes('userId') ? normalised.scalars.userId : undefined,
            handles: changes.handlesChanged ? normalised.handles : undefined,
          },
          contactId,
        );
        await repo.updateContact(tx, contactId, changes.values, now);
        if (changes.handlesChanged) await repo.replaceHandles(tx, teamId, contactId, normalised.handles!);
        if (changes.groupsChanged) await repo.replaceGroups(tx, contactId, normalised.groupIds!);
        await recordContactWrite(tx, this.events, principal, {
          teamId,
          contactId,
          action: 'updated',
          events: changes.events,
          now,
          payload: { fields: changes.fields },
        });
        return (await repo.contactOfTeam(tx, teamId, contactId))!;
      })
      .catch(rethrowAsConflict);
  }

  /** Deletes the contact with its events; financial entries that named it keep their place, without it. */
  async remove(principal: Principal, contactId: number): Promise<void> {
    const { teamId } = await requireContact(this.db, principal, contactId);
    await this.db.transaction(async (tx) => {
      const row = await repo.deleteContact(tx, teamId, contactId);
      if (!row) throw errors.notFound('contact');
      await recordContactDeleted(tx, this.events, principal, teamId, row);
    });
  }

  /** Exactly one lookup: a handle on a network, an e-mail address or a phone number (normalised alike). */
  async resolve(principal: Principal, teamId: number, lookup: repo.ContactLookup) {
    await requireTeam(this.db, principal, teamId);
    const contact = await repo.findContact(this.db, teamId, repo.lookupSql(teamId, lookup));
    if (!contact) throw errors.notFound('contact');
    return contact;
  }

  /** The contact's lead status and how it got there, oldest first. */
  async leadStatus(principal: Principal, teamId: number, contactId: number) {
    await requireTeam(this.db, principal, teamId);
    const contact = await repo.contactOfTeam(this.db, teamId, contactId);
    if (!contact) throw errors.notFound('contact');
    const history = await repo.leadStatusHistory(this.db, contactId);
    return { contactId, leadStatus: contact.leadStatus as LeadStatus, history };
  }

  /**
   * What the fields name beyond the contact itself, checked in the write's transaction: groups of the same
   * team, a platform user the caller may know (else 400, the same whether the user exists or not), and
   * handles no other contact of the team holds (else 409).
   */
  private async checkReferences(
    tx: DbTransaction,
    principal: Principal,
    teamId: number,
    input: {
      groupIds?: number[] | undefined;
      userId?: string | null | undefined;
      handles?: HandleValue[] | undefined;
    },
    contactId?: number,
  ): Promise<void> {
    const problems: ErrorDetail[] = [];
    if (input.groupIds && input.groupIds.length > 0) {
      const found = await repo.groupsOfTeam(tx, teamId, input.groupIds);
      input.groupIds.forEach((id) => {
        if (!found.has(id))
          problems.push({ path: '/body/groupIds', message: `${id} is not a group of this team` });
      });
    }
    const userId = input.userId;
    if (typeof userId === 'string' && !(await mayKnowUser(tx, principal, userId))) {
      problems.push({
        path: '/body/userId',
        message: 'is not a user you can link: they share no team with you and do not let others find them',
      });
    }
    if (problems.length > 0) throw errors.validation(problems);
    const taken = await repo.takenHandles(tx, teamId, input.handles ?? [], contactId);
    if (taken.length > 0) throw errors.conflict(takenMessage(input.handles!, taken));
  }
}

function takenMessage(handles: HandleValue[], taken: { network: string; handleKey: string }[]): string {
  const first = handles.find((h) =>
    taken.some((t) => t.network === h.network && t.handleKey === h.handleKey),
  )!;
  return `The ${first.network} handle ${first.handle} belongs to another contact of this team`;
}
