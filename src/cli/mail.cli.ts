import type { Config } from '../config.ts';
import { latestFiledMail } from '../mail/mail-folder.ts';
import { CommandError } from './failures.ts';

export const MAIL_USAGE = `  mail [--to EMAIL]                                   print the newest message of DATA_DIR/mail (no SMTP_URL)`;

/** `tmw mail`: the newest message the service wrote to its mail folder, decoded; needs no database. */
export async function mailCommand(config: Config, to: string | undefined): Promise<string> {
  if (config.mail.smtpUrl) throw new CommandError('mail goes to SMTP_URL, not to the mail folder');
  const mail = await latestFiledMail(config.mail.directory, to);
  if (!mail) throw new CommandError(`no message${to ? ` to ${to}` : ''} in ${config.mail.directory}`);
  return [
    `From: ${mail.from}`,
    `To: ${mail.to}`,
    `Date: ${mail.date}`,
    `Subject: ${mail.subject}`,
    `File: ${mail.file}`,
    '',
    mail.text.trimEnd(),
  ].join('\n');
}
