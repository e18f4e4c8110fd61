import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestTeam, TestUser } from '../../../../test/helpers/context.ts';
import { expectNoOrphans, putBytes } from '../../../../test/helpers/file-flow.ts';
import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import { campFiles, files } from '../../../db/schema/index.ts';
import { organisationHelpers, type TestOrganisation } from '../organisations.test-support.ts';

const ctx = useStorageTestContext('local');
const { organisationWithTeam, addOrganisationMember, newCamp, logOf } = organisationHelpers(ctx);

let org: TestOrganisation;
let team: TestTeam;
let writer: TestUser;
let camp: { id: number; slug: string };

beforeAll(async () => {
  ({ organisation: org, team } = await organisationWithTeam());
  writer = await ctx.addMember(team, 'member');
  camp = await newCamp(org);
});

const filesUrl = (ref: string | number, suffix = '') => `/api/v1/camps/${ref}/files${suffix}`;

async function share(user: TestUser, teamId: number, text = 'lyrics draft', ref: string | number = camp.id) {
  const body = Buffer.from(text);
  const start = await ctx.request({
    method: 'POST',
    url: filesUrl(ref),
    token: user.token,
    payload: { teamId, fileName: 'lyrics.txt', fileSize: body.length, mediaType: 'text/plain' },
  });
  expect(start.statusCode, start.body).toBe(201);
  const put = await putBytes(ctx, start.json(), body);
  expect(put.status).toBe(200);
  const added = await ctx.request({
    method: 'POST',
    url: filesUrl(ref, `/${start.json().id}/added`),
    token: user.token,
  });
  expect(added.statusCode, added.body).toBe(200);
  return added.json();
}

describe('camp files', () => {
  it('are shared in two steps by readers of the camp, stored on a team of theirs, and listed newest first', async () => {
    const start = await ctx.request({
      method: 'POST',
      url: filesUrl(camp.slug),
      token: writer.token,
      payload: { teamId: team.id, fileName: 'notes.txt', fileSize: 5, mediaType: 'text/plain' },
    });
    expect(start.statusCode).toBe(201);
    expect(start.json()).toMatchObject({
      status: 'pending',
      campId: camp.id,
      teamId: team.id,
      uploadedBy: writer.id,
      method: 'PUT',
      fileKey: expect.stringMatching(new RegExp(`^pending/${team.id}/`)),
    });
    // Not listed until registered.
    const before = await ctx.request({ method: 'GET', url: filesUrl(camp.id), token: writer.token });
    expect(before.json()).toEqual({ items: [], nextCursor: null });

    const first = await share(writer, team.id, 'first');
    const second = await share(writer, team.id, 'second', camp.slug);
    expect(second).toMatchObject({
      status: 'ready',
      campId: camp.id,
      teamId: team.id,
      uploadedBy: writer.id,
      kind: 'document',
    });
    const fetched = await ctx.fetchUrl(second.downloadUrl);
    expect(fetched.body.toString()).toBe('second');

    const page = await ctx.request({
      method: 'GET',
      url: filesUrl(camp.slug, '?limit=1'),
      token: org.owner.token,
    });
    expect(page.json().items.map((f: { id: number }) => f.id)).toEqual([second.id]);
    const rest = await ctx.request({
      method: 'GET',
      url: filesUrl(camp.slug, `?limit=1&cursor=${page.json().nextCursor}`),
      token: org.owner.token,
    });
    expect(rest.json().items.map((f: { id: number }) => f.id)).toEqual([first.id]);
    expect(await logOf({ teamId: team.id }, 'camp.file_added')).toHaveLength(2);
    // Confirming again answers the file.
    const again = await ctx.request({
      method: 'POST',
      url: filesUrl(camp.id, `/${first.id}/added`),
      token: writer.token,
      payload: {},
    });
    expect(again.json()).toMatchObject({ id: first.id, status: 'ready' });
  });

  it('refuses teams the caller is not in, strangers, unknown camps and bad fields', async () => {
    const foreign = await ctx.newTeam();
    const payload = { teamId: foreign.id, fileName: 'x.txt', fileSize: 1, mediaType: 'text/plain' };
    const notMine = await ctx.request({
      method: 'POST',
      url: filesUrl(camp.id),
      token: writer.token,
      payload,
    });
    expect(notMine.statusCode).toBe(404);
    const stranger = await ctx.request({ method: 'GET', url: filesUrl(camp.id), token: foreign.owner.token });
    expect(stranger.statusCode).toBe(404);
    for (const ref of ['999999', '99999999999999', 'no-such-camp']) {
      const res = await ctx.request({ method: 'GET', url: filesUrl(ref), token: writer.token });
      expect(res.statusCode, ref).toBe(404);
    }
    for (const ref of ['Bad_Ref', 'x'.repeat(65)]) {
      const res = await ctx.request({ method: 'GET', url: filesUrl(ref), token: writer.token });
      expect(res.statusCode, ref).toBe(400);
    }
    for (const bad of [
      { ...payload, teamId: team.id, fileSize: -1 },
      { ...payload, teamId: team.id, extra: 1 },
      { fileName: 'x' },
    ]) {
      const res = await ctx.request({
        method: 'POST',
        url: filesUrl(camp.id),
        token: writer.token,
        payload: bad,
      });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    // Someone outside the file's team cannot confirm its upload.
    const start = await ctx.request({
      method: 'POST',
      url: filesUrl(camp.id),
      token: writer.token,
      payload: { teamId: team.id, fileName: 'y.txt', fileSize: 1, mediaType: 'text/plain' },
    });
    const orgAdmin = await addOrganisationMember(org, 'admin');
    const confirm = await ctx.request({
      method: 'POST',
      url: filesUrl(camp.id, `/${start.json().id}/added`),
      token: orgAdmin.token,
    });
    expect(confirm.statusCode).toBe(404);
  });

  it('are deleted by their uploader, managers of their team or of the organisation, nobody else', async () => {
    const file = await share(writer, team.id);
    const colleague = await ctx.addMember(team, 'member');
    const remove = (token: string, id = file.id) =>
      ctx.request({ method: 'DELETE', url: filesUrl(camp.id, `/${id}`), token });
    expect((await remove(colleague.token)).statusCode).toBe(403);
    expect((await remove(writer.token)).statusCode).toBe(204);
    expect((await remove(writer.token)).statusCode).toBe(404);
    const other = await share(writer, team.id);
    expect((await remove(org.owner.token, other.id)).statusCode).toBe(204);
    expect(await ctx.database.db.select().from(files).where(eq(files.id, other.id))).toEqual([]);
    expect(await logOf({ teamId: team.id }, 'camp.file_deleted')).toHaveLength(2);
    await expectNoOrphans(ctx);
  });

  it('go, bytes and all, with their camp or their organisation', async () => {
    const { organisation, team: t } = await organisationWithTeam();
    const [c1, c2] = [await newCamp(organisation), await newCamp(organisation)];
    const f1 = await share(t.owner, t.id, 'one', c1.id);
    const f2 = await share(t.owner, t.id, 'two', c2.id);
    // A pending upload goes too.
    await ctx.request({
      method: 'POST',
      url: filesUrl(c2.id),
      token: t.owner.token,
      payload: { teamId: t.id, fileName: 'p.txt', fileSize: 1, mediaType: 'text/plain' },
    });
    const del = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/organisations/${organisation.id}/camps/${c1.id}`,
      token: organisation.owner.token,
    });
    expect(del.statusCode).toBe(204);
    expect(await ctx.database.db.select().from(files).where(eq(files.id, f1.id))).toEqual([]);
    await ctx.request({
      method: 'DELETE',
      url: `/api/v1/organisations/${organisation.id}`,
      token: organisation.owner.token,
    });
    expect(await ctx.database.db.select().from(files).where(eq(files.id, f2.id))).toEqual([]);
    expect(await ctx.database.db.select().from(campFiles).where(eq(campFiles.campId, c2.id))).toEqual([]);
    await expectNoOrphans(ctx);
  });
});
