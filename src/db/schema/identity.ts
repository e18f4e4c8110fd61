import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const timestamps = {
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
};

export const users = pgTable(
  'users',
  {
    id: uuid().primaryKey().defaultRandom(),
    email: text().notNull(),
    name: text(),
    passwordHash: text(),
    /** `issuer|subject` of an external identity provider, for users provisioned from its tokens. */
    externalSubject: text(),
    defaultTeamId: integer(),
    preferences: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    zeroDataRetention: boolean().notNull().default(false),
    lastAppOpenedAt: timestamp({ withTimezone: true }),
    deletionRequestedAt: timestamp({ withTimezone: true }),
    /**
     * When the address was shown to belong to the account (an identity provider vouched for it, or an
     * operator made the account); null for password sign-ups. Only a verified address claims what was
     * sent to it without its token.
     */
    emailVerifiedAt: timestamp({ withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    uniqueIndex('users_external_subject_unique').on(t.externalSubject),
  ],
);

/** One sign-in: the family of its rotating refresh tokens; revoking it ends every token of the family. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    revokedAt: timestamp({ withTimezone: true }),
    userAgent: text(),
    ip: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** When a refresh token of the session was last exchanged (its sign-in, until then). */
    lastUsedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    tokenHash: text().primaryKey(),
    sessionId: uuid()
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

export const MAIL_TOKEN_PURPOSES = ['verify_email', 'change_email', 'reset_password'] as const;
export type MailTokenPurpose = (typeof MAIL_TOKEN_PURPOSES)[number];

/**
 * A secret mailed to an address: proof that whoever presents it reads mail there. Stored only as its
 * SHA-256; single use (the row goes when it is spent); a newer token of the same purpose replaces the
 * older ones of the account, and its expired ones go then too.
 */
export const mailTokens = pgTable(
  'mail_tokens',
  {
    tokenHash: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text().$type<MailTokenPurpose>().notNull(),
    /** The address the token was sent to: the account's own, or the new one of an address change. */
    email: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mail_tokens_user_idx').on(t.userId, t.purpose)],
);
