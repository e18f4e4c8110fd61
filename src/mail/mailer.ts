import type { Db, DbTransaction } from '../db/client.ts';
import { mailOutbox } from '../db/schema/index.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { withoutTrailing } from '../shared/text.ts';
import type { MailSettings } from './mail.config.ts';
import { type MailContent, renderMail } from './template.ts';

/** The job that hands one outbox message to the relay (or the mail folder). */
export const MAIL_SEND_JOB = 'mail.send';

export type OutgoingMail = {
  to: string;
  /** The template's name, kept with the envelope: `auth.verify_email`, `teams.invite`, ... */
  kind: string;
  content: MailContent;
};

/**
 * Queues mail in the caller's transaction: a message exists only if the change that sends it commits,
 * and a crash between commit and sending loses nothing (the job queue sends it, with retries).
 */
export class Mailer {
  constructor(
    private readonly jobs: JobQueue,
    private readonly settings: MailSettings,
    /** The service's public origin, where links open when no web app (APP_URL) is configured. */
    private readonly publicUrl: string,
  ) {}

  async send(executor: Db | DbTransaction, mail: OutgoingMail): Promise<void> {
    const rendered = renderMail(mail.content);
    const [row] = await executor
      .insert(mailOutbox)
      .values({
        kind: mail.kind,
        toAddress: mail.to,
        subject: rendered.subject,
        textBody: rendered.text,
        htmlBody: rendered.html,
      })
      .returning({ id: mailOutbox.id });
    await this.jobs.enqueue(executor, MAIL_SEND_JOB, { mailId: row!.id });
  }

  /** A link for a mail: the web app's page at `path` with `query` (its secret token, usually). */
  link(path: string, query: Record<string, string> = {}): string {
    const base = withoutTrailing(this.settings.appUrl ?? this.publicUrl, (c) => c === '/');
    const search = new URLSearchParams(query).toString();
    return `${base}${path}${search ? `?${search}` : ''}`;
  }
}
