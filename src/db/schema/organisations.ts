import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { stamp, timestamps } from './columns.ts';
import { files } from './files.ts';
import { users } from './identity.ts';
import { teams } from './teams.ts';
import { tracks } from './tracks.ts';

export const ORGANISATION_ROLES = ['owner', 'admin', 'member'] as const;
export type OrganisationRole = (typeof ORGANISATION_ROLES)[number];

/** A label, a studio company or a publisher: it groups teams and owns buildings, studios and camps. */
export const organisations = pgTable('organisations', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  name: text().notNull(),
  createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
  ...timestamps(),
});

export const organisationMembers = pgTable(
  'organisation_members',
  {
    organisationId: integer()
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text().$type<OrganisationRole>().notNull(),
    joinedAt: stamp().notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.organisationId, t.userId] }),
    index('organisation_members_user_idx').on(t.userId),
    check('organisation_members_role', sql`${t.role} in ('owner', 'admin', 'member')`),
  ],
);

/** A team belongs to at most one organisation. */
export const organisationTeams = pgTable(
  'organisation_teams',
  {
    teamId: integer()
      .primaryKey()
      .references(() => teams.id, { onDelete: 'cascade' }),
    organisationId: integer()
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    addedAt: stamp().notNull().defaultNow(),
  },
  (t) => [index('organisation_teams_organisation_idx').on(t.organisationId)],
);

export const buildings = pgTable(
  'buildings',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    organisationId: integer()
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    address: text(),
    timezone: text(),
    ...timestamps(),
  },
  (t) => [index('buildings_organisation_idx').on(t.organisationId)],
);

/** A bookable room of a building; studio sessions book it for non-overlapping time ranges. */
export const studios = pgTable(
  'studios',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    organisationId: integer()
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    buildingId: integer()
      .notNull()
      .references(() => buildings.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    ...timestamps(),
  },
  (t) => [
    index('studios_organisation_idx').on(t.organisationId),
    uniqueIndex('studios_building_name_unique').on(t.buildingId, sql`lower(${t.name})`),
  ],
);

/** A songwriting camp an organisation runs; `/camps/{camp}` finds it by id or by its slug. */
export const camps = pgTable(
  'camps',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    organisationId: integer()
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    slug: text().notNull(),
    startsOn: date({ mode: 'string' }).notNull(),
    endsOn: date({ mode: 'string' }).notNull(),
    location: text(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('camps_slug_unique').on(t.slug),
    index('camps_organisation_idx').on(t.organisationId, t.startsOn),
    check('camps_dates_ordered', sql`${t.endsOn} >= ${t.startsOn}`),
  ],
);

export const CAMP_RSVP_STATUSES = ['accepted', 'declined', 'maybe'] as const;
export type CampRsvpStatus = (typeof CAMP_RSVP_STATUSES)[number];

/** A person's answer to a camp; changeable, one per person and camp. */
export const campRsvps = pgTable(
  'camp_rsvps',
  {
    campId: integer()
      .notNull()
      .references(() => camps.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text().$type<CampRsvpStatus>().notNull(),
    ...timestamps(),
  },
  (t) => [
    primaryKey({ columns: [t.campId, t.userId] }),
    index('camp_rsvps_user_idx').on(t.userId),
    check('camp_rsvps_status', sql`${t.status} in ('accepted', 'declined', 'maybe')`),
  ],
);

/** The queue of tracks submitted for a camp's listening session, in `position` order. */
export const campListeningItems = pgTable(
  'camp_listening_items',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    campId: integer()
      .notNull()
      .references(() => camps.id, { onDelete: 'cascade' }),
    trackId: integer()
      .notNull()
      .references(() => tracks.id, { onDelete: 'cascade' }),
    /** The track's own team, which submitted it. */
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    submittedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    playedAt: stamp(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('camp_listening_items_track_unique').on(t.campId, t.trackId),
    index('camp_listening_items_queue_idx').on(t.campId, t.position, t.id),
  ],
);

/**
 * The shared files of a camp. Each is a file of the team that uploaded it (its quota pays), owned by the
 * camp (`camp_file` / camp id); this row lists it under the camp.
 */
export const campFiles = pgTable(
  'camp_files',
  {
    fileId: integer()
      .primaryKey()
      .references(() => files.id, { onDelete: 'cascade' }),
    campId: integer()
      .notNull()
      .references(() => camps.id, { onDelete: 'cascade' }),
    teamId: integer()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: stamp().notNull().defaultNow(),
  },
  (t) => [index('camp_files_camp_idx').on(t.campId, t.fileId)],
);

/**
 * An invitation to join an organisation, to an e-mail address or to a user id (exactly one). The user id
 * is not a foreign key on purpose: an invitation to an id nobody has is made and answered like any other,
 * so inviting tells nothing about which accounts exist. Single use; it expires.
 */
export const organisationInvitations = pgTable(
  'organisation_invitations',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    organisationId: integer()
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    email: text(),
    userId: uuid(),
    role: text().$type<OrganisationRole>().notNull(),
    /** SHA-256 hex of the single-use token: the token itself is only mailed and answered at creation. */
    tokenHash: text().notNull(),
    expiresAt: stamp().notNull(),
    acceptedAt: stamp(),
    acceptedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    declinedAt: stamp(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: stamp().notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('organisation_invitations_token_hash_unique').on(t.tokenHash),
    index('organisation_invitations_organisation_idx').on(t.organisationId, t.id),
    index('organisation_invitations_user_idx').on(t.userId),
    index('organisation_invitations_email_idx').on(sql`lower(${t.email})`),
    // At most one open (neither accepted nor declined) invitation per address or user and organisation.
    uniqueIndex('organisation_invitations_open_email_unique')
      .on(t.organisationId, sql`lower(${t.email})`)
      .where(sql`${t.acceptedAt} is null and ${t.declinedAt} is null and ${t.email} is not null`),
    uniqueIndex('organisation_invitations_open_user_unique')
      .on(t.organisationId, t.userId)
      .where(sql`${t.acceptedAt} is null and ${t.declinedAt} is null and ${t.userId} is not null`),
    check('organisation_invitations_role', sql`${t.role} in ('owner', 'admin', 'member')`),
    check('organisation_invitations_invitee', sql`(${t.email} is null) <> (${t.userId} is null)`),
  ],
);
