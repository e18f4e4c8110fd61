import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import type { MailSettings } from './mail.config.ts';

export type Envelope = {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
};

/** Where a message went: the relay's answer, or the file it was written to. */
export type Handed = { relay: string } | { file: string };

/** Hands messages to the SMTP relay, or writes each as an `.eml` file when there is none. */
export type MailTransport = { deliver(mail: Envelope): Promise<Handed>; close(): void };

const SMTP_TIMEOUTS_MS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function createMailTransport(settings: MailSettings): MailTransport {
  const message = (mail: Envelope) => ({
    from: settings.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    // One id per outbox row: a retry after a lost answer is recognisable as the same message.
    messageId: `<${mail.id}@${domainOf(settings.from)}>`,
    // Bodies are our own rendering; nothing in a message may make the sender read files or URLs.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  if (settings.smtpUrl) {
    const smtp = createTransport({ url: settings.smtpUrl, ...SMTP_TIMEOUTS_MS });
    return {
      deliver: async (mail) => {
        const info = await smtp.sendMail(message(mail));
        return { relay: String(info.response ?? '') };
      },
      close: () => smtp.close(),
    };
  }
  const files = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    deliver: async (mail) => {
      const info = await files.sendMail(message(mail));
      await mkdir(settings.directory, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.id}.eml`;
      const file = join(settings.directory, name);
      // Written aside, then renamed: a reader never sees half a message.
      await writeFile(`${file}.part`, info.message as Buffer);
      await rename(`${file}.part`, file);
      return { file };
    },
    close: () => files.close(),
  };
}

/** The domain of the sender's address (`Name <a@b.test>` gives `b.test`), for Message-IDs. */
function domainOf(from: string): string {
  const at = from.lastIndexOf('@');
  if (at < 0) return 'localhost';
  const domain = from.slice(at + 1).trim();
  return (domain.endsWith('>') ? domain.slice(0, -1) : domain) || 'localhost';
}
