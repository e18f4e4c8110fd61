import type { Db } from '../../../db/client.ts';
import type { ChatThreadType } from '../../../db/schema/index.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { isKeyInstant } from '../../../shared/cursor-values.ts';
import { errors } from '../../../shared/errors.ts';
import { decodeCursor, toPage } from '../../../shared/pagination.ts';
import { sessionUserId } from '../../../shared/tenancy.ts';
import { chatEvents } from '../chat-events.ts';
import type { ChatEventType } from '../events/event-types.ts';
import { goneAsNotFound } from '../gone-as-not-found.ts';
import { type ChatIds, isUuid } from '../ids.ts';
import { messagesByIds } from '../messages/messages.repository.ts';
import type { ChatMessagesService } from '../messages/messages.service.ts';
import { requireCreatorOrManager, requireThread, threadAudience } from '../thread-access.ts';
import { membersAdded } from './member-events.ts';
import { threadEventView, threadView } from './thread-view.ts';
import * as repo from './threads.repository.ts';

const isThreadCursor = (value: unknown): value is [string, string] =>
  Array.isArray(value) && value.length === 2 && isKeyInstant(value[0]) && isUuid(value[1]);

export type CreateThreadInput = {
  name?: string | undefined;
  teamIds: number[];
  type: ChatThreadType;
  memberIds?: string[] | undefined;
};

type NewThread = {
  userId: string;
  type: ChatThreadType;
  name: string | null;
  teamIds: number[];
  memberIds: string[];
  dedupeKey: string | null;
  now: Date;
};

const invalid = (path: string, message: string) => errors.validation([{ path, message }]);

/** Threads: list, create, read, rename and delete. */
export class ChatThreadsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly ids: ChatIds,
    private readonly events: EventLog,
    private readonly messages: ChatMessagesService,
  ) {}

  /** The caller's threads (of one team with `teamId`), newest activity first. */
  async list(
    principal: Principal,
    query: { teamId?: number | undefined; limit: number; cursor?: string | undefined },
  ) {
    const userId = sessionUserId(principal);
    if (query.teamId !== undefined) await this.requireTeams(userId, [query.teamId]);
    const after = decodeCursor(query.cursor, isThreadCursor);
    const rows = await repo.listThreads(this.db, userId, { teamId: query.teamId }, after, query.limit + 1);
    const page = toPage(rows, query.limit, (last) => [last.activityAt.toISOString(), last.id]);
    return { items: await this.views(page.items, userId), nextCursor: page.nextCursor };
  }

  async get(principal: Principal, threadId: string) {
    const userId = sessionUserId(principal);
    await requireThread(this.db, userId, threadId);
    return this.view(this.db, userId, threadId);
  }

  /**
   * Creates a thread; a direct thread that already exists for the same two people and teams is answered
   * instead (`created: false`), with both of them made members again.
   */
  async create(principal: Principal, input: CreateThreadInput) {
    const userId = sessionUserId(principal);
    const teamIds = [...new Set(input.teamIds)].sort((a, b) => a - b);
    if (input.type === 'bot') throw invalid('/body/type', 'bot threads are opened with the bot endpoints');
    if ((input.type === 'team' || input.type === 'group') && input.name === undefined)
      throw invalid('/body/name', `is required for a ${input.type} thread`);
    await this.requireTeams(userId, teamIds);
    const memberIds = await this.chosenMembers(userId, teamIds, input);
    const dedupeKey =
      input.type === 'direct'
        ? `direct:${teamIds.join(',')}:${[userId, ...memberIds].sort().join(':')}`
        : null;
    const thread: NewThread = {
      userId,
      type: input.type,
      name: input.name ?? null,
      teamIds,
      memberIds,
      dedupeKey,
      now: this.clock.now(),
    };
    return goneAsNotFound('team', () => this.insert(thread));
  }

  private insert({ userId, type, name, teamIds, memberIds, dedupeKey, now }: NewThread) {
    return this.db.transaction(async (tx) => {
      const id = this.ids.next();
      const created = await repo.insertThread(tx, { id, type, name, dedupeKey, createdBy: userId, now });
      if (!created) {
        const existing = (await repo.findThreadIdByDedupeKey(tx, dedupeKey!))!;
        const returned = await repo.addMembers(tx, existing, [userId, ...memberIds], now);
        await membersAdded(this.events, tx, { id: existing, teamIds }, userId, returned);
        return { created: false, thread: await this.view(tx, userId, existing) };
      }
      await repo.insertThreadTeams(tx, id, teamIds);
      if (type !== 'team') await repo.addMembers(tx, id, [userId, ...memberIds], now);
      const thread = await this.view(tx, userId, id);
      await this.record(tx, userId, teamIds, id, 'created', 'thread.created', {
        thread: threadEventView(thread),
      });
      return { created: true, thread };
    });
  }

  /** Renames a thread (its creator, or an owner or admin of one of its teams). */
  async rename(principal: Principal, threadId: string, name: string) {
    const userId = sessionUserId(principal);
    const access = await requireThread(this.db, userId, threadId);
    requireCreatorOrManager(access, userId, 'Only the thread’s creator or a team owner or admin renames it');
    return this.db.transaction(async (tx) => {
      await repo.renameThread(tx, threadId, name, this.clock.now());
      const thread = await this.view(tx, userId, threadId);
      await this.record(tx, userId, access.teamIds, threadId, 'renamed', 'thread.updated', {
        thread: threadEventView(thread),
      });
      return thread;
    });
  }

  /** Deletes a thread with its messages (its creator, or an owner or admin of one of its teams). */
  async remove(principal: Principal, threadId: string): Promise<void> {
    const userId = sessionUserId(principal);
    const access = await requireThread(this.db, userId, threadId);
    requireCreatorOrManager(access, userId, 'Only the thread’s creator or a team owner or admin deletes it');
    await this.db.transaction(async (tx) => {
      // Told by name: once the thread is gone, nobody "sees" it any more.
      const audience = await threadAudience(tx, [threadId]);
      await repo.deleteThread(tx, threadId);
      const recipients = audience.map((a) => a.userId);
      await this.record(
        tx,
        userId,
        access.teamIds,
        threadId,
        'deleted',
        'thread.deleted',
        { threadId },
        recipients,
      );
    });
  }

  /** One thread as `userId` sees it. */
  async view(db: Db, userId: string, threadId: string) {
    const row = await repo.findThreadRow(db, userId, threadId);
    if (!row) throw errors.notFound('chat thread');
    const [view] = await this.views([row], userId, db);
    return view!;
  }

  /** Thread views with their last messages: a fixed number of statements for any number of threads. */
  private async views(rows: repo.ThreadListRow[], userId: string, db: Db = this.db) {
    const lastIds = rows.map((r) => r.lastMessageId).filter((id): id is string => id !== null);
    const messages = await this.messages.views(db, await messagesByIds(db, lastIds), userId);
    const byId = new Map(messages.map((m) => [m.id, m]));
    return rows.map((row) =>
      threadView(row, row.lastMessageId ? (byId.get(row.lastMessageId) ?? null) : null),
    );
  }

  /** 404 unless the user belongs to every one of `teamIds` (a team they cannot see is not found). */
  private async requireTeams(userId: string, teamIds: number[]) {
    const roles = await repo.rolesIn(this.db, userId, teamIds);
    if (roles.length !== teamIds.length) throw errors.notFound('team');
    return roles;
  }

  /** The other chosen members a new thread gets, checked against its type and teams. */
  private async chosenMembers(
    userId: string,
    teamIds: number[],
    input: CreateThreadInput,
  ): Promise<string[]> {
    const given = input.memberIds;
    if (input.type === 'team') {
      if (given !== undefined)
        throw invalid('/body/memberIds', 'a team thread is open to its teams’ members');
      return [];
    }
    const others = [...new Set((given ?? []).map((id) => id.toLowerCase()))].filter((id) => id !== userId);
    if (input.type === 'direct' && others.length !== 1)
      throw invalid('/body/memberIds', 'a direct thread names exactly one other person');
    await requireTeamMembers(this.db, teamIds, others, given ?? []);
    return others;
  }

  /** The event of a change of a thread (`type`), shown on the stream as `streamType` with `payload`. */
  private async record(
    tx: Db,
    userId: string,
    teamIds: number[],
    threadId: string,
    type: string,
    streamType: ChatEventType,
    payload: Record<string, unknown>,
    recipients?: string[],
  ): Promise<void> {
    await this.events.record(
      tx,
      chatEvents({
        actorUserId: userId,
        teamIds,
        subjectType: 'chat_thread',
        subjectId: threadId,
        type,
        payload,
        stream: { type: streamType, threadId, recipients },
      }),
    );
  }
}

/** 400 naming each of `userIds` that belongs to none of `teamIds` (`given`: the body's list, for paths). */
export async function requireTeamMembers(
  db: Db,
  teamIds: number[],
  userIds: string[],
  given: string[],
): Promise<void> {
  const members = await repo.membersOfTeams(db, teamIds, userIds);
  const strangers = given
    .map((id, index) => ({ id: id.toLowerCase(), index }))
    .filter(({ id }) => userIds.includes(id) && !members.has(id));
  if (strangers.length > 0)
    throw errors.validation(
      strangers.map(({ index }) => ({
        path: `/body/memberIds/${index}`,
        message: 'is not a member of the thread’s teams',
      })),
    );
}
