import type { Db } from '../../../db/client.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { Clock } from '../../../shared/clock.ts';
import { errors } from '../../../shared/errors.ts';
import { decodeCursor, toPage, withTotal } from '../../../shared/pagination.ts';
import { requireTeam, sessionUserId } from '../../../shared/tenancy.ts';
import { chatEvents } from '../chat-events.ts';
import { goneAsNotFound } from '../gone-as-not-found.ts';
import { type ChatIds, isUuid } from '../ids.ts';
import { threadEventView } from '../threads/thread-view.ts';
import * as threadsRepo from '../threads/threads.repository.ts';
import type { ChatThreadsService } from '../threads/threads.service.ts';
import { BOTS, findBot } from './bots.catalogue.ts';
import * as repo from './follow-ups.repository.ts';

/** Writes the bot's reply text; answers the offline text when no model is set or it fails. */
export type ReplyWriter = (
  offline: string,
  context: { userMessage: string; facts: unknown },
) => Promise<string>;

export function followUpView(row: repo.FollowUpRow) {
  return {
    id: row.id,
    teamId: row.teamId,
    botId: row.botId,
    person: row.person,
    network: row.network,
    contactId: row.contactId,
    dueAt: row.dueAt,
    note: row.note,
    status: row.status,
    sourceMessageId: row.sourceMessageId,
    completedAt: row.completedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The built-in bots: their threads and the follow-up tasks they keep (their answers: `bot-answers.ts`). */
export class ChatBotsService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      ids: ChatIds;
      events: EventLog;
      threads: ChatThreadsService;
    },
  ) {}

  async list(principal: Principal, teamId: number) {
    await requireTeam(this.deps.db, principal, teamId);
    return { items: BOTS.map(({ id, name, description }) => ({ id, name, description })) };
  }

  /** The caller's thread with the bot for the team, made on first use (one per user, team and bot). */
  async open(principal: Principal, botId: string, teamId: number) {
    const userId = sessionUserId(principal);
    const bot = this.requireBot(botId);
    await requireTeam(this.deps.db, principal, teamId);
    const { db, clock, ids, events, threads } = this.deps;
    const dedupeKey = `bot:${bot.id}:${teamId}:${userId}`;
    const created = await goneAsNotFound('team', () =>
      db.transaction(async (tx) => {
        const id = ids.next();
        const now = clock.now();
        const inserted = await threadsRepo.insertThread(tx, {
          id,
          type: 'bot',
          name: bot.name,
          botId: bot.id,
          dedupeKey,
          createdBy: userId,
          now,
        });
        if (!inserted) {
          const existing = (await threadsRepo.findThreadIdByDedupeKey(tx, dedupeKey))!;
          await threadsRepo.addMembers(tx, existing, [userId], now);
          return { created: false, id: existing };
        }
        await threadsRepo.insertThreadTeams(tx, id, [teamId]);
        await threadsRepo.addMembers(tx, id, [userId], now);
        const thread = await threads.view(tx, userId, id);
        await events.record(
          tx,
          chatEvents({
            actorUserId: userId,
            teamIds: [teamId],
            subjectType: 'chat_thread',
            subjectId: id,
            type: 'created',
            payload: { thread: threadEventView(thread) },
            stream: { type: 'thread.created', threadId: id },
          }),
        );
        return { created: true, id };
      }),
    );
    return { created: created.created, thread: await threads.get(principal, created.id) };
  }

  /** The caller's follow-up tasks of the team with the bot, newest first. */
  async followUps(
    principal: Principal,
    botId: string,
    teamId: number,
    page: { limit: number; cursor?: string | undefined; count?: boolean },
  ) {
    const userId = sessionUserId(principal);
    const bot = this.requireBot(botId);
    await requireTeam(this.deps.db, principal, teamId);
    const owner = { teamId, userId, botId: bot.id };
    const before = decodeCursor(page.cursor, isUuid);
    const rows = await repo.listFollowUps(this.deps.db, owner, before, page.limit + 1);
    const { items, nextCursor } = toPage(rows, page.limit, (last) => last.id);
    return withTotal({ items: items.map(followUpView), nextCursor }, page.count, () =>
      repo.countFollowUps(this.deps.db, owner),
    );
  }

  /**
   * Removes one of the caller's tasks; another person's (or a missing one) is 404. `named`, the teamId of the
   * request, must be the task's team when given; without it the task's own team is checked.
   */
  async removeFollowUp(principal: Principal, botId: string, named: number | undefined, taskId: string) {
    const userId = sessionUserId(principal);
    const bot = this.requireBot(botId);
    const teamId = named ?? (await repo.teamOfFollowUp(this.deps.db, { userId, botId: bot.id }, taskId));
    if (teamId === undefined) throw errors.notFound('follow-up');
    await requireTeam(this.deps.db, principal, teamId);
    await this.deps.db.transaction(async (tx) => {
      if (!(await repo.deleteFollowUp(tx, { teamId, userId, botId: bot.id }, taskId)))
        throw errors.notFound('follow-up');
      await this.deps.events.record(tx, followUpEvent(userId, teamId, taskId, 'follow_up_deleted'));
    });
  }

  private requireBot(botId: string) {
    const bot = findBot(botId);
    if (!bot) throw errors.notFound('bot');
    return bot;
  }
}

/** The event of a change to a follow-up task (in the team's record only: tasks are not on the stream). */
export function followUpEvent(userId: string, teamId: number, taskId: string, type: string) {
  return chatEvents({
    actorUserId: userId,
    teamIds: [teamId],
    subjectType: 'follow_up_task',
    subjectId: taskId,
    type,
  });
}
