import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { type Config, loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { runMigrations } from '../db/migrate.ts';
import { plans, teams } from '../db/schema/index.ts';
import { createEventLog } from '../event-log.composition.ts';
import { ApiKeysService } from '../modules/api-keys/api-keys.service.ts';
import { findUserByEmail, insertUser } from '../modules/auth/auth.repository.ts';
import { Passwords } from '../modules/auth/passwords.ts';
import { Departures } from '../modules/memberships/departures.ts';
import {
  ORGANISATION_COMMANDS,
  ORGANISATION_OPTIONS,
  ORGANISATION_USAGE,
  organisationCommand,
} from '../modules/organisations/organisations.cli.ts';
import { insertTeamWithOwner } from '../modules/teams/teams.repository.ts';
import { TESTIMONIAL_USAGE, testimonialCommand } from '../modules/testimonials/testimonials.cli.ts';
import { SCOPES, type Scope } from '../plugins/auth.ts';
import { systemClock } from '../shared/clock.ts';
import { BACKUP_COMMANDS, BACKUP_USAGE, backupCommand } from './backup.cli.ts';
import { CommandError, failureMessage, UsageError } from './failures.ts';
import { MAIL_USAGE, mailCommand } from './mail.cli.ts';

const USAGE = `Usage: tmw <command> [options]

Works directly on the configured database (DATA_DIR or DATABASE_URL). The embedded database
(DATA_DIR) is open to one process at a time: while the server runs, tmw stops with an error naming it
(except backup, which the running server makes, and mail, which reads only the mail folder). Output is
printed only once the change is stored.

Commands:
  migrate                                             apply database migrations
  user create --email E --password P [--name N]       create a user (prints its id)
  team create --name N --owner EMAIL [--plan ID]      create a team owned by EMAIL (prints its id)
  team plan --team ID --plan ID                       move a team to another plan
  key create --team ID --name N [--scope S]...        create a team API key (prints the raw key once)
  plans                                               list plans and their limits
${BACKUP_USAGE}
${MAIL_USAGE}
${TESTIMONIAL_USAGE}
${ORGANISATION_USAGE}

Scopes: ${SCOPES.join(', ')}`;

type Options = Record<string, string | string[] | boolean | undefined>;

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function teamId(options: Options): number {
  const id = Number(required(options, 'team'));
  if (!Number.isSafeInteger(id) || id < 1) throw new UsageError('--team must be a positive integer');
  return id;
}

async function run(database: Database, config: Config, command: string[], options: Options): Promise<string> {
  const { db } = database;
  if (command[0] === 'testimonial')
    return testimonialCommand(db, systemClock, command.slice(1), options, (m) => new UsageError(m));
  if (ORGANISATION_COMMANDS.includes(command[0] ?? ''))
    return organisationCommand(
      db,
      systemClock,
      createEventLog(systemClock),
      command,
      options,
      (m) => new UsageError(m),
    );
  switch (command.join(' ')) {
    case 'migrate':
      return 'migrations applied';
    case 'user create': {
      const password = required(options, 'password');
      if (password.length < 8) throw new UsageError('--password needs at least 8 characters');
      const email = required(options, 'email');
      if (await findUserByEmail(db, email)) throw new CommandError('a user with that e-mail already exists');
      const user = await insertUser(db, {
        email,
        name: (options.name as string | undefined) ?? null,
        passwordHash: await new Passwords(config.auth.passwordHashing).hash(password),
        // The operator vouches for the address of an account they make.
        emailVerifiedAt: systemClock.now(),
      });
      return user.id;
    }
    case 'team create': {
      const owner = await findUserByEmail(db, required(options, 'owner'));
      if (!owner) throw new UsageError('no user with that e-mail');
      const team = await insertTeamWithOwner(db, { name: required(options, 'name'), ownerId: owner.id });
      if (typeof options.plan === 'string') await setPlan(database, team.id, options.plan);
      return String(team.id);
    }
    case 'team plan':
      await setPlan(database, teamId(options), required(options, 'plan'));
      return 'plan changed';
    case 'key create': {
      const id = teamId(options);
      const [team] = await db.select({ createdBy: teams.createdBy }).from(teams).where(eq(teams.id, id));
      if (!team?.createdBy) throw new UsageError('no such team (or its creator is gone)');
      const scopes = [options.scope ?? []].flat() as string[];
      const unknown = scopes.filter((s) => !SCOPES.includes(s as Scope));
      if (unknown.length) throw new UsageError(`unknown scope: ${unknown.join(', ')}`);
      // Creating a key ends no right, so no consumer of departures is needed here.
      const keys = new ApiKeysService(db, systemClock, config.apiKeyPrefix, new Departures());
      const principal = { type: 'session', userId: team.createdBy, sessionId: 'cli' } as const;
      const key = await keys.create(principal, id, {
        name: required(options, 'name'),
        scopes: scopes as Scope[],
      });
      return key.key;
    }
    case 'plans': {
      const rows = await db.select().from(plans).orderBy(plans.apiRequestsPerMinute);
      return rows
        .map(
          (p) =>
            `${p.id}\t${p.name}\t${p.apiRequestsPerMinute} req/min\t${p.storageQuotaBytes} bytes\t${p.maxMembers} members`,
        )
        .join('\n');
    }
    default:
      throw new UsageError(command.length ? `unknown command: ${command.join(' ')}` : 'no command given');
  }
}

async function setPlan(database: Database, id: number, planId: string): Promise<void> {
  const [plan] = await database.db.select({ id: plans.id }).from(plans).where(eq(plans.id, planId));
  if (!plan) throw new UsageError(`no plan ${planId} (see: tmw plans)`);
  const updated = await database.db
    .update(teams)
    .set({ planId })
    .where(eq(teams.id, id))
    .returning({ id: teams.id });
  if (updated.length === 0) throw new UsageError(`no team ${id}`);
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      owner: { type: 'string' },
      plan: { type: 'string' },
      team: { type: 'string' },
      scope: { type: 'string', multiple: true },
      quote: { type: 'string' },
      author: { type: 'string' },
      role: { type: 'string' },
      unpublished: { type: 'boolean' },
      force: { type: 'boolean' },
      to: { type: 'string' },
      ...ORGANISATION_OPTIONS,
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length === 0) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  if (positionals[0] === 'mail') {
    process.stdout.write(`${await mailCommand(config, values.to)}\n`);
    return 0;
  }
  if (BACKUP_COMMANDS.includes(positionals[0] ?? '')) {
    process.stdout.write(`${await backupCommand(config, positionals, values)}\n`);
    return 0;
  }
  const database = await openDatabase(config, `tmw ${positionals.join(' ')}`);
  let output: string;
  try {
    await runMigrations(database);
    output = await run(database, config, positionals, values);
  } finally {
    await database.close();
  }
  // Printed once the database is closed, so what it reports is on disk.
  process.stdout.write(`${output}\n`);
  return 0;
}

// Stopped by a signal: exit, which releases the data directory's lock; nothing unfinished is reported.
process.once('SIGINT', () => process.exit(130));
process.once('SIGTERM', () => process.exit(143));

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${failureMessage(error)}\n${error instanceof UsageError ? `\n${USAGE}\n` : ''}`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
