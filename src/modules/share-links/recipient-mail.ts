import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { teams, users } from '../../db/schema/index.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { MailContent } from '../../mail/template.ts';
import { errors } from '../../shared/errors.ts';
import type { RateLimits } from '../../shared/rate-limits.ts';

export type RecipientMail = {
  /** Who shares: the creator's name, else the team's. */
  sharer: string;
  teamName: string;
  /** What is shared, as a phrase: `the track "Night Drive"`. */
  what: string;
  title: string | null;
  message: string | null;
  expiresAt: Date | null;
  hasPassword: boolean;
  url: string;
};

const stamp = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The mail that hands a recipient their own link: who shares what, until when, the link. */
export function recipientMail(mail: RecipientMail): MailContent {
  const by = mail.sharer === mail.teamName ? mail.teamName : `${mail.sharer} (${mail.teamName})`;
  return {
    subject: `${mail.sharer} shared ${mail.what} with you`,
    paragraphs: [
      `${by} shared ${mail.what} with you for listening${mail.title ? `: ${mail.title}` : ''}.`,
      ...(mail.message ? [mail.message] : []),
      mail.expiresAt
        ? `The link works until ${stamp(mail.expiresAt)}.`
        : 'The link works until it is withdrawn.',
      ...(mail.hasPassword ? ['It is protected by a password; ask the sender for it.'] : []),
    ],
    action: { label: 'Open the link', url: mail.url },
    footer: [
      'This link is yours: what you open, play and download through it is shown to the team that shared it. ' +
        'If you did not expect this message, ignore it.',
    ],
  };
}

/** The names a recipient mail gives: the creator's (when a person created the link) and the team's. */
export async function sharerNames(db: Db, teamId: number, userId: string | null) {
  const [team] = await db.select({ name: teams.name }).from(teams).where(eq(teams.id, teamId));
  const teamName = team?.name ?? 'A team';
  if (userId === null) return { sharer: teamName, teamName };
  const [user] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId));
  return { sharer: user?.name ?? teamName, teamName };
}

/** Queues recipient mails in the transaction that made their ways in. */
export async function mailRecipients(
  tx: Db,
  mailer: Mailer,
  base: Omit<RecipientMail, 'url'>,
  recipients: readonly { email: string; url: string }[],
): Promise<void> {
  for (const recipient of recipients)
    await mailer.send(tx, {
      to: recipient.email,
      kind: 'share_links.recipient',
      content: recipientMail({ ...base, url: recipient.url }),
    });
}

/** Recipient mails one team may send per hour: a label mails a release list, nobody floods inboxes. */
export const RECIPIENT_MAILS_PER_TEAM = 200;
const MAIL_BUDGET = { name: 'share_link_mails', seconds: 60 * 60 } as const;

/**
 * Runs `work` with `count` recipient mails taken from the team's hourly budget: 429 (and nothing taken) when
 * it has too few; given back when `work` fails, so a refused request costs nothing.
 */
export async function withMailBudget<T>(
  limits: RateLimits,
  teamId: number,
  count: number,
  work: () => Promise<T>,
): Promise<T> {
  if (count === 0) return work();
  const key = String(teamId);
  const { name, seconds } = MAIL_BUDGET;
  const refund = () => limits.refund(name, key, RECIPIENT_MAILS_PER_TEAM, seconds, count);
  const taken = await limits.consume(name, key, RECIPIENT_MAILS_PER_TEAM, seconds, count);
  if (!taken.allowed) {
    await refund();
    throw errors.rateLimited(taken.resetSeconds);
  }
  try {
    return await work();
  } catch (error) {
    await refund();
    throw error;
  }
}
