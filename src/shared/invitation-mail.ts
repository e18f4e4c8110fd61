import type { MailContent } from '../mail/template.ts';

export type InvitationMail = {
  /** Who invited: their name, or null when their account is gone. */
  inviter: string | null;
  /** What to, as a phrase: `the team "Night Shift"`, `the session "Vocals" on ...`. */
  to: string;
  /** The role the person gets, when the invitation gives one. */
  role?: string;
  /** Until when the link works; null for an invitation that lasts as long as what it is to. */
  expiresAt: Date | null;
  /** The link that accepts it, with the invitation's token. */
  url: string;
  /** Whether only an account with the invited address may accept it. */
  sameAddress: boolean;
};

const stamp = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** One invitation mail for teams, organisations and sessions: who, to what, as what, until when, the link. */
export function invitationMail(mail: InvitationMail): MailContent {
  const who = mail.inviter ?? 'Someone';
  return {
    subject: `${who} invited you to ${mail.to}`,
    paragraphs: [
      `${who} invited you to ${mail.to}${mail.role ? ` as ${mail.role}` : ''}.`,
      mail.expiresAt
        ? `The invitation works until ${stamp(mail.expiresAt)}, once.`
        : 'The invitation works once, until it is withdrawn.',
      `Sign in (or create an account)${mail.sameAddress ? ' with this e-mail address' : ''}, then accept it ` +
        'with the link below.',
    ],
    action: { label: 'Accept the invitation', url: mail.url },
    footer: [
      'You got this message because someone invited this address. If you did not expect it, ignore it: ' +
        'nothing happens unless the link is used.',
    ],
  };
}
