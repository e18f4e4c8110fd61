import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdBy, stamp, timestamps } from './columns.ts';
import { users } from './identity.ts';
import { teams } from './teams.ts';

export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'negotiating', 'won', 'lost'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** A person or company a team works with; e-mail unique per team (case-insensitive), phone kept as E.164. */
export const contacts = pgTable(
  'contacts',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    email: text(),
    phone: text(),
    company: text(),
    role: text(),
    tags: text().array().notNull().default(sql`'{}'::text[]`),
    leadStatus: text().$type<LeadStatus>().notNull().default('new'),
    notes: text(),
    /** The platform user this contact is, when linked. */
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    ...createdBy(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('contacts_team_email_unique').on(t.teamId, sql`lower(${t.email})`),
    // The list's alphabetical order; a name-prefix search (`q`) walks it within the team.
    index('contacts_team_name_idx').on(t.teamId, sql`lower(${t.name})`, t.id),
    index('contacts_team_phone_idx').on(t.teamId, t.phone),
    index('contacts_user_idx').on(t.userId),
  ],
);

/** A contact's handle on one network (instagram, tiktok, ...); a handle resolves to one contact per team. */
export const contactHandles = pgTable(
  'contact_handles',
  {
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    teamId: integer().notNull(),
    network: text().notNull(),
    handle: text().notNull(),
    /** Lower-cased, without a leading `@`: what `resolve` matches. */
    handleKey: text().notNull(),
    position: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.contactId, t.network, t.handleKey] }),
    uniqueIndex('contact_handles_team_handle_unique').on(t.teamId, t.network, t.handleKey),
  ],
);

export const contactGroups = pgTable(
  'contact_groups',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    ...createdBy(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('contact_groups_team_name_unique').on(t.teamId, sql`lower(${t.name})`)],
);

export const contactGroupMembers = pgTable(
  'contact_group_members',
  {
    groupId: integer()
      .notNull()
      .references(() => contactGroups.id, { onDelete: 'cascade' }),
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.contactId] }),
    index('contact_group_members_contact_idx').on(t.contactId),
  ],
);

/**
 * What happened to a contact, newest first on its timeline: created, changed (with the changed fields),
 * lead status moves (`data.from` / `data.to`, which is also the lead-status history), notes.
 */
export const contactEvents = pgTable(
  'contact_events',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    ...createdBy(),
    createdAt: stamp().notNull().defaultNow(),
  },
  (t) => [
    index('contact_events_contact_idx').on(t.contactId, t.createdAt.desc(), t.id.desc()),
    index('contact_events_lead_idx').on(t.contactId, t.id).where(sql`${t.kind} = 'lead_status_changed'`),
    check('contact_events_kind', sql`${t.kind} ~ '^[a-z_]+$'`),
  ],
);
