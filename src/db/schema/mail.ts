import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Mail waiting to be sent, and a record of what was. The bodies carry single-use links, so they are
 * cleared once the message is handed to the relay (or given up on): only the envelope stays.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** The template the message came from (`auth.verify_email`, `teams.invite`, ...). */
    kind: text().notNull(),
    toAddress: text().notNull(),
    subject: text().notNull(),
    textBody: text(),
    htmlBody: text(),
    attempts: integer().notNull().default(0),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
    failedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('mail_outbox_to_created_idx').on(t.toAddress, t.createdAt)],
);
