import type { Db } from '../../../db/client.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { JobQueue } from '../../../jobs/job-queue.ts';
import type { Clock } from '../../../shared/clock.ts';
import { AppError } from '../../../shared/errors.ts';
import type { ChatIds } from '../ids.ts';
import type { MessageView } from '../messages/message-view.ts';
import type { ChatMessagesService, MessageBots } from '../messages/messages.service.ts';
import { requireThread, type ThreadAccess } from '../thread-access.ts';
import { claimAnswer, unansweredMessage } from './answers.repository.ts';
import { offlineReplies } from './bot-replies.ts';
import { findBot } from './bots.catalogue.ts';
import { followUpEvent, followUpView, type ReplyWriter } from './bots.service.ts';
import { type BotCommand, parseCommand } from './follow-up-parser.ts';
import * as repo from './follow-ups.repository.ts';
import { isTimeZone } from './time-zone.ts';

export const BOT_ANSWER_JOB = 'chat.botAnswer';
type BotAnswerJob = { threadId: string; messageId: string; userId: string };
type Owner = { teamId: number; userId: string; botId: string };

const LIST_LIMIT = 20;
const MAX_REPLY_CHARS = 10_000;

/**
 * What a command does: the reply's offline text and facts, read before the model words them, and the change,
 * made with the reply in one transaction; the change answers other offline text when it found other facts.
 */
type Plan = { offline: string; facts: unknown; apply: (tx: Db) => Promise<string | undefined> };

/**
 * Bots' answers to messages in their threads, written by a durable job queued with the user's message: the
 * request that stores the message never waits for (or fails with) the answer, and a process that stops
 * before answering leaves the job to another. The answer and its change are written once, however often the
 * job runs.
 */
export class ChatBotAnswers implements MessageBots {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      ids: ChatIds;
      jobs: JobQueue;
      messages: ChatMessagesService;
      events: EventLog;
      writeReply: ReplyWriter;
    },
  ) {
    deps.jobs.define<BotAnswerJob>(BOT_ANSWER_JOB, (job) => this.run(job), {
      maxAttempts: 3,
      backoffMs: 5_000,
    });
  }

  async queue(tx: Db, thread: ThreadAccess, userId: string, message: MessageView): Promise<void> {
    if (thread.type !== 'bot' || !thread.botId || !message.content?.trim()) return;
    await this.deps.jobs.enqueue<BotAnswerJob>(tx, BOT_ANSWER_JOB, {
      threadId: thread.id,
      messageId: message.id,
      userId,
    });
  }

  nudge(): void {
    this.deps.jobs.nudge();
  }

  /** The job: nothing once the user no longer sees the thread, or the message is gone or answered. */
  private async run({ threadId, messageId, userId }: BotAnswerJob): Promise<void> {
    const { db, ids, messages } = this.deps;
    const thread = await this.visibleThread(userId, threadId);
    const bot = thread?.botId ? findBot(thread.botId) : undefined;
    const teamId = thread?.teamIds[0];
    const message = await unansweredMessage(db, threadId, messageId);
    if (!thread || !bot || teamId === undefined || !message) return;
    const stored = await repo.timeZoneOf(db, userId);
    const timeZone = isTimeZone(stored) ? stored : 'UTC';
    const command = parseCommand(message.content, this.deps.clock.now(), timeZone);
    const plan = await this.plan({ teamId, userId, botId: bot.id }, messageId, command, timeZone);
    const text = await this.deps.writeReply(plan.offline, {
      userMessage: message.content,
      facts: plan.facts,
    });
    const replyId = ids.next();
    await db.transaction(async (tx) => {
      if (!(await claimAnswer(tx, messageId, replyId))) return;
      const changed = await plan.apply(tx);
      await messages.post(tx, thread, { botId: bot.id }, (changed ?? text).slice(0, MAX_REPLY_CHARS), {
        id: replyId,
      });
    });
  }

  private async visibleThread(userId: string, threadId: string): Promise<ThreadAccess | undefined> {
    try {
      return await requireThread(this.deps.db, userId, threadId);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 404) return undefined;
      throw error;
    }
  }

  private async plan(
    owner: Owner,
    sourceMessageId: string,
    command: BotCommand,
    timeZone: string,
  ): Promise<Plan> {
    const { db, clock, ids } = this.deps;
    const now = clock.now();
    const { teamId, userId } = owner;
    switch (command.kind) {
      case 'create': {
        const task: repo.FollowUpRow = {
          id: ids.next(),
          ...owner,
          sourceMessageId,
          person: command.person,
          network: command.network,
          contactId: await repo.matchContact(db, teamId, command.person),
          dueAt: command.dueAt,
          note: command.note,
          status: 'open',
          completedAt: null,
          createdAt: now,
          updatedAt: now,
        };
        return {
          offline: offlineReplies.created(task, timeZone),
          facts: { created: followUpView(task), timeZone },
          apply: async (tx) => {
            await repo.insertFollowUp(tx, task);
            await this.deps.events.record(tx, followUpEvent(userId, teamId, task.id, 'follow_up_created'));
            return undefined;
          },
        };
      }
      case 'list': {
        const tasks = await repo.openFollowUps(db, owner, LIST_LIMIT);
        return {
          offline: offlineReplies.list(tasks, timeZone),
          facts: { open: tasks.map(followUpView), timeZone },
          apply: async () => undefined,
        };
      }
      case 'done': {
        const open = await repo.countOpenFor(db, owner, command.person);
        return {
          offline: offlineReplies.done(command.person, open),
          facts: { completed: open },
          apply: async (tx) => {
            const done = await repo.completeFollowUps(tx, owner, command.person, now);
            await this.deps.events.record(
              tx,
              done.flatMap((task) => followUpEvent(userId, teamId, task.id, 'follow_up_done')),
            );
            return done.length === open ? undefined : offlineReplies.done(command.person, done.length);
          },
        };
      }
      default:
        return { offline: offlineReplies.help(), facts: { help: true }, apply: async () => undefined };
    }
  }
}
