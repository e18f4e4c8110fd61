import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './identity.ts';

/** Plans are data: limits a team gets, shown by `GET /teams/{id}/plan`. */
export const plans = pgTable('plans', {
  id: text().primaryKey(),
  name: text().notNull(),
  apiRequestsPerMinute: integer().notNull(),
  storageQuotaBytes: bigint({ mode: 'number' }).notNull(),
  maxMembers: integer().notNull(),
  isDefault: boolean().notNull().default(false),
});

/** What a status asks before a track or album may enter it: approvals of people with the listed roles. */
export type StatusRequirement = {
  approvals: number;
  /** Roles (in the team that owns the track) whose approvals count; all when absent. */
  roles?: TeamRole[];
  /** Move a track here on its own once a review decision completes the requirement. */
  autoAdvance?: boolean;
};
export type StatusDefinition = { id: string; name: string; color?: string; requires?: StatusRequirement };
export type StatusConfig = { tracks: StatusDefinition[]; albums: StatusDefinition[] };

export const teams = pgTable(
  'teams',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull(),
    /** Unique; names the team in interview paths (`/interviews/public/teams/{slug}`). */
    slug: text().notNull(),
    planId: text()
      .notNull()
      .references(() => plans.id),
    statusConfig: jsonb().$type<StatusConfig>().notNull(),
    bannerKey: text(),
    socials: jsonb().$type<Record<string, string>>().notNull().default({}),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('teams_slug_unique').on(t.slug)],
);

export const TEAM_ROLES = ['owner', 'admin', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const teamMembers = pgTable(
  'team_members',
  {
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text().$type<TeamRole>().notNull(),
    hiddenInSwitcher: boolean().notNull().default(false),
    joinedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index('team_members_user_idx').on(t.userId)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** The first characters of the raw key, so a person can tell keys apart. */
    prefix: text().notNull(),
    keyHash: text().notNull(),
    scopes: text().array().notNull(),
    expiresAt: timestamp({ withTimezone: true }),
    lastUsedAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('api_keys_hash_unique').on(t.keyHash), index('api_keys_team_idx').on(t.teamId)],
);

export const invites = pgTable(
  'team_invites',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    email: text().notNull(),
    role: text().$type<TeamRole>().notNull().default('member'),
    /** SHA-256 hex of the single-use token: the token itself is only mailed and answered at creation. */
    tokenHash: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    acceptedAt: timestamp({ withTimezone: true }),
    acceptedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    /** When the invited person turned it down; a declined invite cannot be accepted. */
    declinedAt: timestamp({ withTimezone: true }),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('team_invites_token_hash_unique').on(t.tokenHash),
    index('team_invites_team_idx').on(t.teamId),
    index('team_invites_email_idx').on(sql`lower(${t.email})`),
    // At most one open (neither accepted nor declined) invite per address and team; expired ones are cleared
    // before a new one.
    uniqueIndex('team_invites_open_email_unique')
      .on(t.teamId, sql`lower(${t.email})`)
      .where(sql`${t.acceptedAt} is null and ${t.declinedAt} is null`),
  ],
);
