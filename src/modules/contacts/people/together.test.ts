import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { markEmailVerified } from '../../../../test/helpers/account.ts';
import { type TestTeam, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { trackCollaborators, tracks, trackVersions, users } from '../../../db/schema/index.ts';
import { contactHelpers, expectValidationPaths } from '../contacts.test-support.ts';

const ctx = useTestContext();
const { newContact } = contactHelpers(ctx);

let shared: TestTeam;
let mine: TestTeam;
let caller: TestUser;
let person: TestUser;
let stranger: TestUser;
const trackIds: Record<string, number> = {};

beforeAll(async () => {
  shared = await ctx.newTeam(undefined, 'B Shared');
  caller = shared.owner;
  person = await ctx.addMember(shared, 'member');
  stranger = await ctx.newUser();
  // An e-mail names a user only once verified.
  for (const user of [person, stranger]) await markEmailVerified(ctx, user);
  mine = await ctx.newTeam(caller, 'A Mine');
  const second = await ctx.newTeam(caller, 'C Also shared');
  await ctx.addMember(second, 'admin', person);
  const db = ctx.database.db;
  // The caller made every track; the person worked on some of them.
  for (const name of ['version', 'collaborator', 'untouched', 'deleted', 'secondTeam']) {
    trackIds[name] = (await ctx.newTrack(name === 'secondTeam' ? second : shared, { title: name })).id;
  }
  const elsewhere = await ctx.newTrack(mine, { title: 'notShared' });
  await db.insert(trackVersions).values([
    {
      trackId: trackIds.version!,
      position: 1,
      name: 'their take',
      audioFileName: 'a.wav',
      createdBy: person.id,
    },
    {
      trackId: trackIds.deleted!,
      position: 1,
      name: 'their take',
      audioFileName: 'a.wav',
      createdBy: person.id,
    },
  ]);
  await db.insert(trackCollaborators).values([
    { trackId: trackIds.collaborator!, name: 'Person', userId: person.id, roles: ['producer'] },
    { trackId: trackIds.secondTeam!, name: 'Person', userId: person.id, roles: ['mix'] },
    { trackId: elsewhere.id, name: 'Person', userId: person.id, roles: ['mix'] },
  ]);
  await db.update(tracks).set({ deletedAt: new Date() }).where(eq(tracks.id, trackIds.deleted!));
  await db
    .update(tracks)
    .set({ updatedAt: new Date(Date.now() + 60_000) })
    .where(eq(tracks.id, trackIds.secondTeam!));
});

const together = (query: string, token = caller.token) =>
  ctx.request({ method: 'GET', url: `/api/v1/contacts/together?${query}`, token });

describe('together', () => {
  it('lists the teams both are in and the tracks of those teams both worked on', async () => {
    const res = await together(`userId=${person.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const second = res.json().teams[1];
    expect(res.json()).toEqual({
      userId: person.id,
      name: null,
      teams: [
        { id: shared.id, name: 'B Shared' },
        { id: expect.any(Number), name: 'C Also shared' },
      ],
      tracks: [
        { id: trackIds.secondTeam, title: 'secondTeam', teamId: second.id },
        { id: trackIds.collaborator, title: 'collaborator', teamId: shared.id },
        { id: trackIds.version, title: 'version', teamId: shared.id },
      ],
      sessions: [],
      threads: [],
    });
    // The same answer by e-mail (any case) and by a contact linked to the person.
    expect((await together(`email=${encodeURIComponent(person.email.toUpperCase())}`)).json()).toEqual(
      res.json(),
    );
    const contact = await newContact(shared, { name: 'Linked', userId: person.id });
    expect((await together(`contactId=${contact.id}`)).json()).toEqual(res.json());
    // It reads the same from the other side.
    const back = (await together(`userId=${caller.id}`, person.token)).json();
    expect(back.tracks).toEqual(res.json().tracks);
  });

  it('answers a discoverable user with nothing shared, and 404 for anyone hidden or unknown', async () => {
    const dee = await ctx.newUser();
    await ctx.database.db
      .update(users)
      .set({ preferences: { discoverable: true } })
      .where(eq(users.id, dee.id));
    // Anyone may sign up with any address: one not verified names nobody, though its user is discoverable.
    expect((await together(`email=${encodeURIComponent(dee.email)}`)).statusCode).toBe(404);
    expect((await together(`userId=${dee.id}`)).statusCode).toBe(200);
    await markEmailVerified(ctx, dee);
    const res = await together(`email=${encodeURIComponent(dee.email)}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      userId: dee.id,
      name: null,
      teams: [],
      tracks: [],
      sessions: [],
      threads: [],
    });

    const notFound = async (query: string) => {
      const answer = await together(query);
      expect(answer.statusCode, query).toBe(404);
      return answer.json();
    };
    const hidden = await notFound(`userId=${stranger.id}`);
    expect(await notFound('userId=00000000-0000-7000-8000-000000000000')).toEqual(hidden);
    expect(await notFound(`email=${encodeURIComponent(stranger.email)}`)).toEqual(hidden);
    expect(await notFound('email=nobody%40example.test')).toEqual(hidden);
    expect(await notFound('userId=not-a-uuid')).toEqual(hidden);
    const unlinked = await newContact(shared, { name: 'Not a user' });
    expect(await notFound(`contactId=${unlinked.id}`)).toEqual(hidden);
    const theirs = await newContact(await ctx.newTeam(stranger), { name: 'Theirs', userId: stranger.id });
    expect(await notFound(`contactId=${theirs.id}`)).toEqual(hidden);
  });

  it('wants exactly one way to name the person, within the lengths of the specification', async () => {
    expectValidationPaths(await together(''), ['/query']);
    expectValidationPaths(await together(`userId=${person.id}&email=a%40b.c`), ['/query']);
    expectValidationPaths(await together(`userId=${'a'.repeat(65)}`), ['/query/userId']);
    expectValidationPaths(await together(`email=${'a'.repeat(321)}`), ['/query/email']);
    expectValidationPaths(await together('contactId=abc'), ['/query/contactId']);
  });

  it('is for sessions only', async () => {
    const key = await ctx.newApiKey(shared, ['contacts:write']);
    const res = await together(`userId=${person.id}`, key);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('session_required');
  });
});
