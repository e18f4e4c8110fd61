import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { mailOutbox } from '../db/schema/index.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { Clock } from '../shared/clock.ts';
import { MAIL_SEND_JOB } from './mailer.ts';
import type { MailTransport } from './transport.ts';

/** Tries over about an hour and a half (back-off doubles from 20 s), then the message is given up on. */
export const MAIL_SEND_ATTEMPTS = 9;
const MAIL_BACKOFF_MS = 20_000;
const MAX_ERROR_LENGTH = 500;

/**
 * Sends queued mail: one job per message. At least once: a message whose sending succeeded but whose
 * record did not follow is sent again with the same Message-ID. Once sent, or given up on, the bodies
 * (and the single-use links in them) are cleared.
 */
export function defineMailDelivery(db: Db, clock: Clock, jobs: JobQueue, transport: MailTransport): void {
  jobs.define<{ mailId: string }>(
    MAIL_SEND_JOB,
    async ({ mailId }, { attempt }) => {
      const [mail] = await db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.id, mailId), isNull(mailOutbox.sentAt), isNull(mailOutbox.failedAt)))
        .limit(1);
      if (!mail || mail.textBody === null || mail.htmlBody === null) return;
      const envelope = {
        id: mail.id,
        to: mail.toAddress,
        subject: mail.subject,
        text: mail.textBody,
        html: mail.htmlBody,
      };
      try {
        const handed = await transport.deliver(envelope);
        await finish(db, mailId, { sentAt: clock.now(), attempts: attempt, lastError: null });
        // One line per message, without its body: the link in it is a secret.
        jobs.logger.info({ mailId, kind: mail.kind, ...handed }, 'mail sent');
      } catch (error) {
        const lastError = (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_LENGTH);
        if (attempt >= MAIL_SEND_ATTEMPTS) {
          await finish(db, mailId, { failedAt: clock.now(), attempts: attempt, lastError });
          jobs.logger.error({ mailId, kind: mail.kind, err: lastError }, 'mail given up on');
          return;
        }
        await db.update(mailOutbox).set({ attempts: attempt, lastError }).where(eq(mailOutbox.id, mailId));
        throw error;
      }
    },
    { maxAttempts: MAIL_SEND_ATTEMPTS, backoffMs: MAIL_BACKOFF_MS, leaseMs: 2 * 60_000 },
  );
}

function finish(
  db: Db,
  mailId: string,
  outcome: { sentAt?: Date; failedAt?: Date; attempts: number; lastError: string | null },
) {
  return db
    .update(mailOutbox)
    .set({ ...outcome, textBody: null, htmlBody: null })
    .where(eq(mailOutbox.id, mailId));
}
