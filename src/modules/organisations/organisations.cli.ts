import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { buildings, organisations, teams } from '../../db/schema/index.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Clock } from '../../shared/clock.ts';
import { sqlState } from '../../shared/db-errors.ts';
import { AppError } from '../../shared/errors.ts';
import { storableText } from '../../shared/text.ts';
import { findUserByEmail } from '../auth/auth.repository.ts';
import { campInputProblem, insertCampWithSlug } from './camps/camp-input.ts';
import { organisationEvent, organisationTeamEvent } from './organisation-events.ts';
import * as repo from './organisations.repository.ts';
import { insertBuilding, insertStudio } from './places/places.repository.ts';
import { canonicalTimeZone } from './time-zone.ts';

export const ORGANISATION_USAGE = `  org create --name N --owner EMAIL                   create an organisation owned by EMAIL (prints its id)
  org add-team --org ID --team ID                     put a team in an organisation
  building create --org ID --name N [--address A] [--timezone TZ]
                                                      add a building (prints its id)
  studio create --org ID --building ID --name N       add a studio to a building (prints its id)
  camp create --org ID --name N --starts YYYY-MM-DD --ends YYYY-MM-DD [--slug S] [--location L]
                                                      create a camp (prints its id and slug)`;

/** The command-line options these commands read, for `parseArgs`. */
export const ORGANISATION_OPTIONS = {
  org: { type: 'string' },
  building: { type: 'string' },
  address: { type: 'string' },
  timezone: { type: 'string' },
  starts: { type: 'string' },
  ends: { type: 'string' },
  slug: { type: 'string' },
  location: { type: 'string' },
} as const;

/** The commands of the organisations area: `org`, `building`, `studio` and `camp`. */
export const ORGANISATION_COMMANDS = ['org', 'building', 'studio', 'camp'];

type Options = Readonly<Record<string, unknown>>;
type Usage = (message: string) => Error;

const LIMITS = { name: 200, address: 500, location: 500 } as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

function text(options: Options, name: 'name' | 'address' | 'location', usage: Usage): string | undefined {
  const given = options[name];
  const value = typeof given === 'string' ? given.trim() : undefined;
  if (value === undefined || value === '') return undefined;
  if (!storableText(value)) throw usage(`--${name} holds characters that cannot be stored`);
  if (value.length > LIMITS[name]) throw usage(`--${name} may have at most ${LIMITS[name]} characters`);
  return value;
}

function required(value: string | undefined, name: string, usage: Usage): string {
  if (value === undefined) throw usage(`--${name} is required`);
  return value;
}

function idOption(options: Options, name: string, usage: Usage): number {
  const raw = options[name];
  const id = Number(raw);
  if (
    typeof raw !== 'string' ||
    !/^\d+$/.test(raw) ||
    !Number.isSafeInteger(id) ||
    id < 1 ||
    id > 2_147_483_647
  )
    throw usage(`--${name} must be a positive integer id`);
  return id;
}

function dateOption(options: Options, name: 'starts' | 'ends', usage: Usage): string {
  const raw = options[name];
  if (
    typeof raw !== 'string' ||
    !DATE.test(raw) ||
    Number.isNaN(Date.parse(`${raw}T00:00:00Z`)) ||
    new Date(`${raw}T00:00:00Z`).toISOString().slice(0, 10) !== raw
  )
    throw usage(`--${name} must be a date (YYYY-MM-DD)`);
  return raw;
}

async function requireOrganisationId(db: Db, options: Options, usage: Usage): Promise<number> {
  const id = idOption(options, 'org', usage);
  const [row] = await db.select({ id: organisations.id }).from(organisations).where(eq(organisations.id, id));
  if (!row) throw usage(`no organisation ${id}`);
  return id;
}

/**
 * `tmw org|building|studio|camp ...`: operators' writes, done without an API caller (their events are recorded
 * without an actor). Answers the text to print; `usage` makes the error for a wrong invocation.
 */
export async function organisationCommand(
  db: Db,
  clock: Clock,
  events: EventLog,
  args: string[],
  options: Options,
  usage: Usage,
): Promise<string> {
  const now = clock.now();
  switch (args.join(' ')) {
    case 'org create': {
      const name = required(text(options, 'name', usage), 'name', usage);
      const email = options.owner;
      const owner = typeof email === 'string' ? await findUserByEmail(db, email) : undefined;
      if (!owner) throw usage('--owner must be the e-mail of an existing user');
      const row = await db.transaction((tx) => repo.insertOrganisation(tx, { name, ownerId: owner.id, now }));
      return String(row.id);
    }
    case 'org add-team': {
      const organisationId = await requireOrganisationId(db, options, usage);
      const teamId = idOption(options, 'team', usage);
      const [team] = await db.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId));
      if (!team) throw usage(`no team ${teamId}`);
      await db.transaction(async (tx) => {
        if (!(await repo.insertTeam(tx, organisationId, teamId, now)))
          throw usage(
            `team ${teamId} already belongs to organisation ${await repo.organisationOfTeam(tx, teamId)}`,
          );
        await events.record(
          tx,
          organisationTeamEvent(null, teamId, organisationId, {
            type: 'organisation.team_added',
            subject: { type: 'organisation', id: organisationId },
          }),
        );
      });
      return `team ${teamId} added to organisation ${organisationId}`;
    }
    case 'building create': {
      const organisationId = await requireOrganisationId(db, options, usage);
      const name = required(text(options, 'name', usage), 'name', usage);
      let timezone: string | null = null;
      if (typeof options.timezone === 'string') {
        timezone = canonicalTimeZone(options.timezone) ?? null;
        if (!timezone) throw usage('--timezone must be an IANA time zone, e.g. Europe/Berlin');
      }
      const row = await db.transaction(async (tx) => {
        const building = await insertBuilding(tx, {
          organisationId,
          name,
          address: text(options, 'address', usage) ?? null,
          timezone,
          createdAt: now,
          updatedAt: now,
        });
        await events.record(
          tx,
          organisationEvent(null, organisationId, {
            type: 'building.created',
            subject: { type: 'building', id: building.id },
          }),
        );
        return building;
      });
      return String(row.id);
    }
    case 'studio create': {
      const organisationId = await requireOrganisationId(db, options, usage);
      const buildingId = idOption(options, 'building', usage);
      const name = required(text(options, 'name', usage), 'name', usage);
      const [building] = await db
        .select({ id: buildings.id })
        .from(buildings)
        .where(and(eq(buildings.id, buildingId), eq(buildings.organisationId, organisationId)));
      if (!building) throw usage(`no building ${buildingId} in organisation ${organisationId}`);
      try {
        const id = await db.transaction(async (tx) => {
          const studioId = await insertStudio(tx, {
            organisationId,
            buildingId,
            name,
            createdAt: now,
            updatedAt: now,
          });
          await events.record(
            tx,
            organisationEvent(null, organisationId, {
              type: 'studio.created',
              subject: { type: 'studio', id: studioId },
            }),
          );
          return studioId;
        });
        return String(id);
      } catch (error) {
        if (sqlState(error) === '23505')
          throw usage(`building ${buildingId} already has a studio named ${name}`);
        throw error;
      }
    }
    case 'camp create': {
      const organisationId = await requireOrganisationId(db, options, usage);
      const name = required(text(options, 'name', usage), 'name', usage);
      const startsOn = dateOption(options, 'starts', usage);
      const endsOn = dateOption(options, 'ends', usage);
      const slug = typeof options.slug === 'string' ? options.slug : undefined;
      if (slug !== undefined && !SLUG.test(slug))
        throw usage('--slug takes lower-case letters, digits and inner hyphens (at most 64)');
      const problem = campInputProblem({ startsOn, endsOn, slug });
      if (problem) throw usage(`--${problem.field === 'endsOn' ? 'ends' : 'slug'} ${problem.message}`);
      try {
        const camp = await db.transaction(async (tx) => {
          const row = await insertCampWithSlug(
            tx,
            {
              organisationId,
              name,
              startsOn,
              endsOn,
              location: text(options, 'location', usage) ?? null,
              createdAt: now,
              updatedAt: now,
            },
            slug,
          );
          await events.record(
            tx,
            organisationEvent(null, organisationId, {
              type: 'camp.created',
              subject: { type: 'camp', id: row.id },
              payload: { slug: row.slug },
            }),
          );
          return row;
        });
        return `${camp.id}\t${camp.slug}`;
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 409) throw usage(`--slug ${slug} is taken`);
        throw error;
      }
    }
    default:
      throw usage(`unknown command: ${args.join(' ')}`);
  }
}
