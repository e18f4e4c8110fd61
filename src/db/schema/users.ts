import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './identity.ts';

export const PUSH_PLATFORMS = ['ios', 'android', 'web'] as const;
export type PushPlatform = (typeof PUSH_PLATFORMS)[number];

/**
 * Device push tokens. A token belongs to one user at a time: registering it again moves it.
 * Uniqueness is on a hash because tokens may be longer than a B-tree index entry allows.
 */
export const pushTokens = pgTable(
  'push_tokens',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull(),
    token: text().notNull(),
    platform: text().$type<PushPlatform>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('push_tokens_token_hash_unique').on(t.tokenHash),
    index('push_tokens_user_idx').on(t.userId),
  ],
);
