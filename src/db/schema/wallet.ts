import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { stamp } from './columns.ts';
import { users } from './identity.ts';
import { apiKeys } from './teams.ts';

/**
 * One-time tokens that let a caller fetch their wallet pass (`GET /wallet/identity/{platform}?token=`):
 * only a hash is kept; a token is the user's (session) or the key's that asked for it, and is used once.
 */
export const walletTokens = pgTable(
  'wallet_tokens',
  {
    tokenHash: text().primaryKey(),
    userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    apiKeyId: integer().references(() => apiKeys.id, { onDelete: 'cascade' }),
    expiresAt: stamp().notNull(),
    usedAt: stamp(),
    createdAt: stamp().notNull().defaultNow(),
  },
  (t) => [
    index('wallet_tokens_user_idx').on(t.userId),
    index('wallet_tokens_api_key_idx').on(t.apiKeyId),
    check('wallet_tokens_one_holder', sql`(${t.userId} is null) <> (${t.apiKeyId} is null)`),
  ],
);
