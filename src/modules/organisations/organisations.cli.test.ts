import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';
import { buildings, camps, organisationMembers, organisationTeams, studios } from '../../db/schema/index.ts';
import { organisationCommand } from './organisations.cli.ts';
import { organisationHelpers } from './organisations.test-support.ts';

const ctx = useTestContext();
const { logOf } = organisationHelpers(ctx);

class CliUsage extends Error {}
const tmw = (args: string, options: Record<string, string> = {}) =>
  organisationCommand(
    ctx.database.db,
    ctx.clock,
    ctx.app.services.events,
    args.split(' '),
    options,
    (m) => new CliUsage(m),
  );

describe('tmw org|building|studio|camp', () => {
  it('creates an organisation for an existing user, who owns it', async () => {
    const owner = await ctx.newUser();
    const id = Number(await tmw('org create', { name: ' Night Owl ', owner: owner.email.toUpperCase() }));
    const members = await ctx.database.db
      .select()
      .from(organisationMembers)
      .where(eq(organisationMembers.organisationId, id));
    expect(members).toEqual([expect.objectContaining({ userId: owner.id, role: 'owner' })]);
    const res = await ctx.request({ method: 'GET', url: `/api/v1/organisations/${id}`, token: owner.token });
    expect(res.json()).toMatchObject({ name: 'Night Owl', role: 'owner' });
    await expect(tmw('org create', { name: 'X', owner: 'nobody@example.test' })).rejects.toThrow(CliUsage);
    await expect(tmw('org create', { owner: owner.email })).rejects.toThrow('--name is required');
  });

  it('puts any team in an organisation, once', async () => {
    const owner = await ctx.newUser();
    const org = await tmw('org create', { name: 'Label', owner: owner.email });
    const team = await ctx.newTeam();
    expect(await tmw('org add-team', { org, team: String(team.id) })).toBe(
      `team ${team.id} added to organisation ${org}`,
    );
    const rows = await ctx.database.db
      .select()
      .from(organisationTeams)
      .where(eq(organisationTeams.teamId, team.id));
    expect(rows).toEqual([expect.objectContaining({ organisationId: Number(org) })]);
    expect(await logOf({ teamId: team.id }, 'organisation.team_added')).toEqual([
      expect.objectContaining({ actorUserId: null, payload: { organisationId: Number(org) } }),
    ]);
    await expect(tmw('org add-team', { org, team: String(team.id) })).rejects.toThrow('already belongs');
    await expect(tmw('org add-team', { org, team: '999999' })).rejects.toThrow('no team');
    await expect(tmw('org add-team', { org: 'x', team: String(team.id) })).rejects.toThrow('--org');
    await expect(tmw('org add-team', { org: '999999', team: String(team.id) })).rejects.toThrow(
      'no organisation',
    );
  });

  it('adds buildings and studios, and creates camps with a slug', async () => {
    const owner = await ctx.newUser();
    const org = await tmw('org create', { name: 'Studios Inc', owner: owner.email });
    const building = await tmw('building create', {
      org,
      name: 'Harbour House',
      timezone: 'europe/lisbon',
      address: '1 Quay',
    });
    const [b] = await ctx.database.db
      .select()
      .from(buildings)
      .where(eq(buildings.id, Number(building)));
    expect(b).toMatchObject({ organisationId: Number(org), timezone: 'Europe/Lisbon', address: '1 Quay' });
    await expect(tmw('building create', { org, name: 'X', timezone: 'Nowhere/Land' })).rejects.toThrow(
      '--timezone',
    );

    const studio = await tmw('studio create', { org, building, name: 'Room A' });
    const [s] = await ctx.database.db
      .select()
      .from(studios)
      .where(eq(studios.id, Number(studio)));
    expect(s).toMatchObject({ buildingId: Number(building), name: 'Room A' });
    await expect(tmw('studio create', { org, building, name: 'room a' })).rejects.toThrow('already has');
    await expect(tmw('studio create', { org, building: '999999', name: 'B' })).rejects.toThrow('no building');

    const camp = await tmw('camp create', {
      org,
      name: 'Spring Camp',
      starts: '2030-04-01',
      ends: '2030-04-05',
      location: 'Porto',
    });
    const [id, slug] = camp.split('\t');
    expect(slug).toBe('spring-camp');
    const [c] = await ctx.database.db
      .select()
      .from(camps)
      .where(eq(camps.id, Number(id)));
    expect(c).toMatchObject({ startsOn: '2030-04-01', endsOn: '2030-04-05', location: 'Porto' });
    expect(
      (
        await tmw('camp create', { org, name: 'Spring Camp', starts: '2030-04-01', ends: '2030-04-05' })
      ).split('\t')[1],
    ).toBe('spring-camp-2');
    const cases: [Record<string, string>, string][] = [
      [{ starts: '2030-04-05', ends: '2030-04-01' }, '--ends'],
      [{ starts: '2030-02-30', ends: '2030-04-01' }, '--starts'],
      [{ starts: '2030-04-01', ends: '2030-04-01', slug: '2030' }, '--slug'],
      [{ starts: '2030-04-01', ends: '2030-04-01', slug: 'Bad Slug' }, '--slug'],
      [{ starts: '2030-04-01', ends: '2030-04-01', slug: 'spring-camp' }, 'taken'],
    ];
    for (const [options, message] of cases) {
      await expect(
        tmw('camp create', { org, name: 'Bad', ...options }),
        JSON.stringify(options),
      ).rejects.toThrow(message);
    }
    await expect(tmw('camp remove', {})).rejects.toThrow('unknown command');
  });

  it('are wired into tmw: listed in its help, their options accepted', async () => {
    const options = ['--org', '1', '--building', '2', '--address', 'a', '--timezone', 'UTC', '--starts', 'x'];
    options.push('--ends', 'y', '--slug', 's', '--location', 'l', '--help');
    const { stdout } = await promisify(execFile)(process.execPath, [
      'bin/tmw.js',
      'camp',
      'create',
      ...options,
    ]);
    for (const line of [
      'org create --name N --owner EMAIL',
      'org add-team',
      'building create',
      'studio create',
      'camp create',
    ])
      expect(stdout).toContain(line);
  });
});
