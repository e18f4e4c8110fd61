import { type Static, Type } from '@sinclair/typebox';
import { withoutTrailing } from '../shared/text.ts';

/**
 * Outgoing mail. With `SMTP_URL` messages go to that relay; without it (the embedded default) each one is
 * written as an `.eml` file under `DATA_DIR/mail/`, so a first user can open the link it carries.
 */
export const MailEnv = Type.Object({
  SMTP_URL: Type.Optional(
    Type.String({
      pattern: '^smtps?://',
      description: 'smtp://user:password@host:587 (STARTTLS when offered) or smtps://host:465',
    }),
  ),
  MAIL_FROM: Type.String({
    minLength: 3,
    maxLength: 320,
    default: 'Team Music Workspace <no-reply@localhost>',
  }),
  APP_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
});

type Env = Static<typeof MailEnv>;

export type MailSettings = Readonly<{
  /** The SMTP relay; undefined writes `.eml` files to `directory` instead. */
  smtpUrl: string | undefined;
  from: string;
  /** Where the links of mails open: the web app's origin (APP_URL), else the service's public origin. */
  appUrl: string | undefined;
  /** Where `.eml` files go when there is no relay. */
  directory: string;
}>;

export function mailSettings(env: Env & { DATA_DIR: string }): MailSettings {
  return Object.freeze({
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM,
    appUrl: env.APP_URL,
    directory: `${withoutTrailing(env.DATA_DIR, (c) => c === '/')}/mail`,
  });
}
