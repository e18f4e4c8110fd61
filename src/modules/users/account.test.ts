import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { requestAccountDeletion } from '../../../test/helpers/account.ts';
import { TestClock, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { queryRows } from '../../../test/helpers/database.ts';
import {
  organisationMembers,
  organisations,
  organisationTeams,
  pushTokens,
  sessions,
  teamMembers,
  teams,
  users,
} from '../../db/schema/index.ts';

const clock = new TestClock();
const ctx = useTestContext({ clock });

const PHRASE = 'DELETE MY ACCOUNT';
const THIRTY_DAYS_MS = 30 * 86_400_000;

const deleteAccount = (token: string, payload?: object) => requestAccountDeletion(ctx, token, payload);
const status = (token: string) =>
  ctx.request({ method: 'GET', url: '/api/v1/user/account/deletion-status', token });
const login = (user: TestUser, password = user.password) =>
  ctx.request({ method: 'POST', url: '/api/v1/auth/login', payload: { email: user.email, password } });

async function waitingOnLocks(): Promise<number> {
  const [row] = await queryRows<{ waiting: number }>(
    ctx.database.db,
    sql`select count(*)::int as waiting from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`,
  );
  return row!.waiting;
}

async function teamIdsOf(userId: string) {
  const rows = await ctx.database.db
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .where(eq(teamMembers.userId, userId));
  return rows.map((r) => r.teamId).sort((a, b) => a - b);
}

describe('account deletion status', () => {
  it('is active for a normal account', async () => {
    const user = await ctx.newUser();
    const res = await status(user.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'active', requestedAt: null, purgeAfter: null });
  });
});

describe('account deletion', () => {
  it('refuses a wrong or missing confirmation phrase with a clear 400, and changes nothing', async () => {
    const user = await ctx.newUser();
    for (const confirmation of ['delete my account', 'DELETE MY ACCOUNT ', 'yes']) {
      const res = await deleteAccount(user.token, { confirmation });
      expect(res.statusCode, confirmation).toBe(400);
      expect(res.json()).toEqual({
        error: `To delete your account, send confirmation "${PHRASE}"`,
        code: 'validation_failed',
        details: [{ path: '/body/confirmation', message: `must be exactly "${PHRASE}"` }],
      });
    }
    const missing = await deleteAccount(user.token, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details).toEqual([{ path: '/body/confirmation', message: 'is required' }]);
    expect((await status(user.token)).json().status).toBe('active');
  });

  it('refuses (409, naming the teams) while I am the only owner of a team with other members', async () => {
    const owner = await ctx.newUser();
    const crowded = await ctx.newTeam(owner);
    await ctx.addMember(crowded, 'admin');
    const alsoCrowded = await ctx.newTeam(owner);
    await ctx.addMember(alsoCrowded, 'member');
    const coOwned = await ctx.newTeam(owner);
    await ctx.addMember(coOwned, 'owner');
    const solo = await ctx.newTeam(owner);

    const res = await deleteAccount(owner.token);
    expect(res.statusCode).toBe(409);
    const body = res.json();
    expect(body.code).toBe('conflict');
    expect(body.error).toContain(`${crowded.id}, ${alsoCrowded.id}`);
    expect(body.details).toEqual([
      { path: `/teams/${crowded.id}`, message: 'has other members and no other owner' },
      { path: `/teams/${alsoCrowded.id}`, message: 'has other members and no other owner' },
    ]);

    // Nothing happened: still signed in, still in every team, the solo team still exists.
    expect((await status(owner.token)).json().status).toBe('active');
    expect(await teamIdsOf(owner.id)).toEqual([crowded.id, alsoCrowded.id, coOwned.id, solo.id]);
  });

  it('refuses (409, naming them) while I am the only owner of an organisation with other members or teams', async () => {
    const owner = await ctx.newUser();
    const other = await ctx.newUser();
    const db = ctx.database.db;
    const newOrganisation = async (name: string) => {
      const [row] = await db.insert(organisations).values({ name }).returning({ id: organisations.id });
      await db
        .insert(organisationMembers)
        .values({ organisationId: row!.id, userId: owner.id, role: 'owner' });
      return row!.id;
    };
    const crowded = await newOrganisation('crowded');
    await db.insert(organisationMembers).values({ organisationId: crowded, userId: other.id, role: 'admin' });
    const withTeam = await newOrganisation('with a team');
    const team = await ctx.newTeam(other);
    await db.insert(organisationTeams).values({ organisationId: withTeam, teamId: team.id });
    const alone = await newOrganisation('alone');

    const refused = await deleteAccount(owner.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().details).toEqual([
      { path: `/organisations/${crowded}`, message: 'has other members or teams and no other owner' },
      { path: `/organisations/${withTeam}`, message: 'has other members or teams and no other owner' },
    ]);
    expect((await status(owner.token)).json().status).toBe('active');

    // Once someone else owns them too, the account goes: it leaves both, and the one it was alone in goes.
    await db
      .insert(organisationMembers)
      .values({ organisationId: withTeam, userId: other.id, role: 'owner' });
    await db
      .update(organisationMembers)
      .set({ role: 'owner' })
      .where(eq(organisationMembers.userId, other.id));
    expect((await deleteAccount(owner.token)).statusCode).toBe(202);
    const left = await db
      .select({ id: organisationMembers.organisationId })
      .from(organisationMembers)
      .where(eq(organisationMembers.userId, owner.id));
    expect(left).toEqual([]);
    const remaining = await db
      .select({ id: organisations.id })
      .from(organisations)
      .where(inArray(organisations.id, [crowded, withTeam, alone]));
    expect(remaining.map((r) => r.id).sort((a, b) => a - b)).toEqual([crowded, withTeam]);
  });

  it('schedules deletion: leaves teams, deletes solo teams, ends every session at once, refuses later sign-ins', async () => {
    const user = await ctx.newUser();
    const solo = await ctx.newTeam(user);
    const coOwned = await ctx.newTeam(user);
    const coOwner = await ctx.addMember(coOwned, 'owner');
    const elsewhere = await ctx.newTeam();
    await ctx.addMember(elsewhere, 'member', user);
    const otherSession = await login(user);
    expect(otherSession.statusCode).toBe(200);
    await ctx.request({
      method: 'POST',
      url: '/api/v1/user/push-tokens',
      token: user.token,
      payload: { token: `device-${ctx.unique()}`, platform: 'ios' },
    });

    const requestedAt = clock.now();
    const res = await deleteAccount(user.token);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({
      status: 'scheduled',
      requestedAt: requestedAt.toISOString(),
      purgeAfter: new Date(requestedAt.getTime() + THIRTY_DAYS_MS).toISOString(),
    });

    // The token just used, another session's token and its refresh token all stop working at once.
    for (const token of [user.token, otherSession.json().access_token]) {
      const next = await ctx.request({ method: 'GET', url: '/api/v1/user/profile', token });
      expect(next.statusCode).toBe(401);
      expect(next.body).toBe('{"error":"Unauthorized"}');
    }
    const refresh = await ctx.request({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: { refresh_token: user.refreshToken },
    });
    expect(refresh.statusCode).toBe(401);

    // Signing in is refused exactly like a wrong password.
    const refused = await login(user);
    const wrongPassword = await login(await ctx.newUser(), 'not-the-password');
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toBe(wrongPassword.body);

    const db = ctx.database.db;
    expect(await teamIdsOf(user.id)).toEqual([]);
    const left = await db
      .select({ id: teams.id })
      .from(teams)
      .where(inArray(teams.id, [solo.id, coOwned.id, elsewhere.id]));
    expect(left.map((t) => t.id).sort((a, b) => a - b)).toEqual([coOwned.id, elsewhere.id]);
    expect(await teamIdsOf(coOwner.id)).toEqual([coOwned.id]);
    expect(await db.select().from(pushTokens).where(eq(pushTokens.userId, user.id))).toEqual([]);
    const [row] = await db
      .select({ at: users.deletionRequestedAt, defaultTeamId: users.defaultTeamId })
      .from(users)
      .where(eq(users.id, user.id));
    expect(row).toEqual({ at: requestedAt, defaultTeamId: null });
  });

  // On the embedded engine transactions run one at a time, so a sign-in cannot read between them.
  it.skipIf(!process.env.DATABASE_URL)(
    'refuses a sign-in that read the account while its deletion was being committed: no session outlives it',
    async () => {
      const user = await ctx.newUser();
      const db = ctx.database.db;
      let commit!: () => void;
      const committed = new Promise<void>((resolve) => {
        commit = resolve;
      });
      // A deletion request's writes to the user row and its sessions, held open before the commit.
      const deletion = db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
        await tx.update(users).set({ deletionRequestedAt: clock.now() }).where(eq(users.id, user.id));
        await tx.update(sessions).set({ revokedAt: clock.now() }).where(eq(sessions.userId, user.id));
        await committed;
      });
      const signIn = login(user);
      // The sign-in read the account as it was and now waits on its row to open the session.
      await expect.poll(() => waitingOnLocks(), { timeout: 10_000 }).toBeGreaterThan(0);
      commit();
      await deletion;
      const res = await signIn;
      expect(res.statusCode).toBe(401);
      const live = await db
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)));
      expect(live).toEqual([]);
    },
  );

  it('lets the remaining owner of a co-owned team carry on', async () => {
    const leaving = await ctx.newUser();
    const team = await ctx.newTeam(leaving);
    const staying = await ctx.addMember(team, 'owner');
    expect((await deleteAccount(leaving.token)).statusCode).toBe(202);
    const res = await ctx.request({
      method: 'PATCH',
      url: '/api/v1/user/default-team',
      token: staying.token,
      payload: { teamId: team.id },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('the purge of accounts scheduled for deletion', () => {
  const runJobs = () => ctx.app.services.jobs.runDue();

  it('deletes the account after the grace period; what it wrote in teams stays, without its name', async () => {
    const team = await ctx.newTeam();
    const leaving = await ctx.addMember(team, 'member');
    const staying = await ctx.newUser();
    const track = await ctx.newTrack(team);
    const comment = await ctx.request({
      method: 'POST',
      url: `/api/v1/tracks/${track.id}/versions/${track.versionId}/comments`,
      token: leaving.token,
      payload: { comment: 'love the bridge' },
    });
    expect(comment.statusCode, comment.body).toBe(201);
    expect((await deleteAccount(leaving.token)).statusCode).toBe(202);
    expect((await deleteAccount(staying.token)).statusCode).toBe(202);
    const exists = async (id: string) =>
      (await ctx.database.db.select({ id: users.id }).from(users).where(eq(users.id, id))).length === 1;

    clock.advance(THIRTY_DAYS_MS - 60_000);
    await runJobs();
    expect(await exists(leaving.id)).toBe(true);

    clock.advance(2 * 3_600_000);
    await runJobs();
    expect(await exists(leaving.id)).toBe(false);
    expect(await exists(staying.id)).toBe(false);
    const owner = await login(team.owner);
    const comments = await ctx.request({
      method: 'GET',
      url: `/api/v1/tracks/${track.id}/versions/${track.versionId}/comments`,
      token: owner.json().access_token,
    });
    expect(comments.statusCode, comments.body).toBe(200);
    expect(JSON.stringify(comments.json())).toContain('love the bridge');
    expect(JSON.stringify(comments.json())).not.toContain(leaving.id);

    // The address is free again.
    const again = await ctx.request({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email: leaving.email, password: leaving.password, name: 'Back again' },
    });
    expect(again.statusCode, again.body).toBe(201);
  });

  it('leaves accounts that were not scheduled alone', async () => {
    const user = await ctx.newUser();
    clock.advance(400 * 86_400_000);
    await runJobs();
    expect((await login(user)).statusCode).toBe(200);
  });
});
