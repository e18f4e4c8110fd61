import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TestTeam } from '../../../../test/helpers/context.ts';
import { expectNoOrphans, putBytes, RESUMABLE_TICKET, testWav } from '../../../../test/helpers/file-flow.ts';
import { describeSecurityMatrix, type MatrixCase } from '../../../../test/helpers/security-matrix.ts';
import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import {
  expectRefusals,
  type Refusal,
  tinyPng,
  uploadAttachment,
} from '../../../../test/helpers/track-files.ts';
import { files, versionComments } from '../../../db/schema/index.ts';

const ctx = useStorageTestContext('local');

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
  ctx.request({ method, url, token, ...(payload ? { payload } : {}) });

const pdf = Buffer.from('%PDF-1.4\n% notes\n%%EOF\n');

/** A version lasting 60 seconds, and its URL. */
async function newVersion(team: TestTeam) {
  const track = await ctx.newTrack(team);
  const version = await ctx.newVersion(track, { durationSeconds: 60 });
  return { track, versionId: version.id, url: `/api/v1/tracks/${track.id}/versions/${version.id}` };
}

async function withAttachments(url: string, token: string, body: object) {
  return call('POST', `${url}/comments/with-attachments`, token, body);
}

const commentCount = async (versionId: number) =>
  (await ctx.database.db.select().from(versionComments).where(eq(versionComments.versionId, versionId)))
    .length;

describe('POST .../comments/upload', () => {
  it('answers an upload URL with or without a body, naming the file after what it is told', async () => {
    const team = await ctx.newTeam();
    const { url, versionId } = await newVersion(team);
    const bare = await ctx.request({
      method: 'POST',
      url: `${url}/comments/upload`,
      token: team.owner.token,
    });
    expect(bare.statusCode, bare.body).toBe(200);
    expect(bare.json()).toEqual({
      id: expect.any(Number),
      versionId,
      status: 'pending',
      fileName: 'attachment.png',
      fileSize: null,
      mediaType: 'image/png',
      kind: 'image',
      createdAt: expect.any(String),
      uploadUrl: expect.any(String),
      method: 'PUT',
      headers: expect.objectContaining({ 'content-type': 'image/png' }),
      fileKey: expect.stringMatching(new RegExp(`^pending/${team.id}/`)),
      expiresAt: expect.any(String),
      resumable: RESUMABLE_TICKET,
    });
    const named: [object, Record<string, unknown>][] = [
      [{}, { fileName: 'attachment.png', mediaType: 'image/png' }],
      [{ mediaType: 'audio/mpeg' }, { fileName: 'attachment.mp3', kind: 'audio' }],
      [
        { fileName: 'Mix notes.pdf', fileSize: 20 },
        { mediaType: 'application/pdf', kind: 'document', fileSize: 20 },
      ],
      [
        { fileName: 'voice', mediaType: 'audio/wav' },
        { fileName: 'voice', mediaType: 'audio/wav' },
      ],
    ];
    for (const [payload, expected] of named) {
      const res = await call('POST', `${url}/comments/upload`, team.owner.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(200);
      expect(res.json(), JSON.stringify(payload)).toMatchObject(expected);
    }
  });

  it('refuses unknown types and malformed bodies', async () => {
    const team = await ctx.newTeam();
    const { url } = await newVersion(team);
    const cases: Refusal[] = [
      [{ mediaType: 'image' }, 400, 'unsupported_file_type'],
      [{ fileName: 'run.exe' }, 400, 'unsupported_file_type'],
      [{ mediaType: 'video/x-unknown' }, 400, 'unsupported_file_type'],
      [{ mediaType: 'nonsense' }, 400, 'validation_failed', '/body/mediaType'],
      [{ fileName: '' }, 400, 'validation_failed', '/body/fileName'],
      [{ fileSize: -1 }, 400, 'validation_failed', '/body/fileSize'],
      [{ comment: 'x' }, 400, 'validation_failed', '/body'],
      [{ fileSize: 30 * 1024 * 1024 }, 413, 'payload_too_large'],
    ];
    await expectRefusals(ctx, team.owner.token, `${url}/comments/upload`, cases);
    const text = await ctx.request({
      method: 'POST',
      url: `${url}/comments/upload`,
      token: team.owner.token,
      payload: '{"fileName":',
      headers: { 'content-type': 'application/json' },
    });
    expect(text.json().code).toBe('invalid_json');
  });
});

describe('POST .../comments/with-attachments', () => {
  it('creates the comment with its files; lists and answers carry them with working links', async () => {
    const team = await ctx.newTeam();
    const { url, versionId } = await newVersion(team);
    const png = tinyPng(33);
    const image = await uploadAttachment(ctx, team.owner.token, url, png);
    const sheet = await uploadAttachment(ctx, team.owner.token, url, pdf, { fileName: 'sheet.pdf' });
    const created = await withAttachments(url, team.owner.token, {
      comment: ' listen at the drop ',
      atSeconds: 42,
      attachments: [sheet.fileKey, image.fileKey],
    });
    expect(created.statusCode, created.body).toBe(201);
    const comment = created.json();
    expect(comment).toMatchObject({
      versionId,
      comment: 'listen at the drop',
      atSeconds: 42,
      parentId: null,
      authorId: team.owner.id,
      reactions: [],
    });
    expect(comment.attachments).toEqual([
      {
        id: image.id,
        fileName: 'attachment.png',
        contentType: 'image/png',
        size: png.length,
        url: expect.any(String),
        downloadUrl: expect.any(String),
        urlExpiresAt: expect.any(String),
      },
      expect.objectContaining({ id: sheet.id, fileName: 'sheet.pdf', contentType: 'application/pdf' }),
    ]);
    const fetched = await ctx.fetchUrl(comment.attachments[0].url);
    expect(fetched.body.equals(png)).toBe(true);

    const plain = await call('POST', `${url}/comments`, team.owner.token, { comment: 'no files' });
    expect(plain.json().attachments).toEqual([]);
    const reply = await uploadAttachment(ctx, team.owner.token, url, testWav(0.1), { fileName: 'idea.wav' });
    const replied = await withAttachments(url, team.owner.token, {
      comment: 'like this?',
      parentId: comment.id,
      attachments: [reply.fileKey],
    });
    expect(replied.statusCode, replied.body).toBe(201);
    expect(replied.json().attachments).toEqual([expect.objectContaining({ contentType: 'audio/wav' })]);

    const list = await call('GET', `${url}/comments`, team.owner.token);
    const byId = new Map(list.json().items.map((c: { id: number }) => [c.id, c]));
    expect((byId.get(comment.id) as { attachments: unknown[] }).attachments).toHaveLength(2);
    expect((byId.get(replied.json().id) as { attachments: unknown[] }).attachments).toHaveLength(1);
    expect((byId.get(plain.json().id) as { attachments: unknown[] }).attachments).toEqual([]);
    // Other answers of the comment carry them too.
    const edited = await call('PATCH', `${url}/comments/${comment.id}`, team.owner.token, {
      comment: 'edited',
    });
    expect(edited.json().attachments).toHaveLength(2);
    // The pending uploads are used up.
    expect(await ctx.listKeys(`pending/${team.id}/`)).toEqual([]);
  });

  it('stores nothing when a key is unknown, foreign, used or not uploaded yet; the good uploads stay usable', async () => {
    const team = await ctx.newTeam();
    const { url, versionId, track } = await newVersion(team);
    const good = await uploadAttachment(ctx, team.owner.token, url, tinyPng(1));
    const otherVersion = await ctx.newVersion(track);
    const foreign = await uploadAttachment(
      ctx,
      team.owner.token,
      `/api/v1/tracks/${track.id}/versions/${otherVersion.id}`,
      tinyPng(2),
    );
    const unknown = await withAttachments(url, team.owner.token, {
      comment: 'x',
      attachments: [good.fileKey, `pending/${team.id}/nothing`, foreign.fileKey],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details.map((d: { path: string }) => d.path)).toEqual([
      '/body/attachments/1',
      '/body/attachments/2',
    ]);
    const notYet = (await call('POST', `${url}/comments/upload`, team.owner.token)).json();
    const missing = await withAttachments(url, team.owner.token, {
      comment: 'x',
      attachments: [good.fileKey, notYet.fileKey],
    });
    expect(missing.statusCode).toBe(409);
    expect(missing.json().code).toBe('upload_missing');
    expect(await commentCount(versionId)).toBe(0);

    const ok = await withAttachments(url, team.owner.token, { comment: 'x', attachments: [good.fileKey] });
    expect(ok.statusCode, ok.body).toBe(201);
    const reused = await withAttachments(url, team.owner.token, {
      comment: 'y',
      attachments: [good.fileKey],
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().details[0].path).toBe('/body/attachments/0');
    expect(await commentCount(versionId)).toBe(1);
  });

  it('validates the comment fields and the attachment list (400 with paths)', async () => {
    const team = await ctx.newTeam();
    const { url } = await newVersion(team);
    const upload = await uploadAttachment(ctx, team.owner.token, url, tinyPng());
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `pending/${team.id}/k${i}`);
    const bodies: [object, string][] = [
      [{ comment: 'x' }, '/body/attachments'],
      [{ comment: 'x', attachments: [] }, '/body/attachments'],
      [{ comment: 'x', attachments: keys(11) }, '/body/attachments'],
      [{ comment: 'x', attachments: [upload.fileKey, upload.fileKey] }, '/body/attachments'],
      [{ comment: 'x', attachments: [''] }, '/body/attachments/0'],
      [{ comment: 'x', attachments: [42] }, '/body/attachments/0'],
      [{ attachments: [upload.fileKey] }, '/body/comment'],
      [{ comment: 'x', atSeconds: 61, attachments: [upload.fileKey] }, '/body/atSeconds'],
      [{ comment: 'x', parentId: 999999, attachments: [upload.fileKey] }, '/body/parentId'],
      [{ comment: 'x', attachments: [upload.fileKey], files: [] }, '/body'],
    ];
    for (const [body, path] of bodies) {
      const res = await withAttachments(url, team.owner.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(
        res
          .json()
          .details.map((d: { path: string }) => d.path)
          .join(' '),
        JSON.stringify(body),
      ).toContain(path);
    }
    // The upload survived every refusal.
    const ok = await withAttachments(url, team.owner.token, { comment: 'x', attachments: [upload.fileKey] });
    expect(ok.statusCode).toBe(201);
  });

  it('deletes the files of a deleted comment and of its replies', async () => {
    const team = await ctx.newTeam();
    const { url } = await newVersion(team);
    const top = await withAttachments(url, team.owner.token, {
      comment: 'top',
      attachments: [(await uploadAttachment(ctx, team.owner.token, url, tinyPng(1))).fileKey],
    });
    const reply = await withAttachments(url, team.owner.token, {
      comment: 'reply',
      parentId: top.json().id,
      attachments: [(await uploadAttachment(ctx, team.owner.token, url, tinyPng(2))).fileKey],
    });
    const kept = await withAttachments(url, team.owner.token, {
      comment: 'other thread',
      attachments: [(await uploadAttachment(ctx, team.owner.token, url, tinyPng(3))).fileKey],
    });
    const links = [top, reply].map((r) => r.json().attachments[0].url as string);
    expect((await call('DELETE', `${url}/comments/${top.json().id}`, team.owner.token)).statusCode).toBe(204);
    for (const link of links) expect((await ctx.fetchUrl(link)).status).toBe(404);
    const left = await ctx.database.db.select({ id: files.id }).from(files).where(eq(files.teamId, team.id));
    expect(left).toEqual([{ id: kept.json().attachments[0].id }]);
    await expectNoOrphans(ctx);
  });

  it('deletes the attachments of the comments of a deleted version', async () => {
    const team = await ctx.newTeam();
    const { url } = await newVersion(team);
    const created = await withAttachments(url, team.owner.token, {
      comment: 'doomed',
      attachments: [(await uploadAttachment(ctx, team.owner.token, url, tinyPng(8))).fileKey],
    });
    expect((await call('DELETE', url, team.owner.token)).statusCode).toBe(204);
    expect((await ctx.fetchUrl(created.json().attachments[0].url)).status).toBe(404);
    expect(await ctx.database.db.select().from(files).where(eq(files.teamId, team.id))).toEqual([]);
  });

  it("never uploads to or comments on another team's version (404)", async () => {
    const team = await ctx.newTeam();
    const other = await ctx.newTeam();
    const { url, versionId } = await newVersion(team);
    const upload = await uploadAttachment(ctx, team.owner.token, url, tinyPng());
    expect((await call('POST', `${url}/comments/upload`, other.owner.token)).statusCode).toBe(404);
    const res = await withAttachments(url, other.owner.token, {
      comment: 'x',
      attachments: [upload.fileKey],
    });
    expect(res.statusCode).toBe(404);
    // Their own version cannot take our upload either.
    const theirs = await newVersion(other);
    const stolen = await withAttachments(theirs.url, other.owner.token, {
      comment: 'x',
      attachments: [upload.fileKey],
    });
    expect(stolen.statusCode).toBe(400);
    expect(await commentCount(versionId)).toBe(0);
  });

  it('works with a team API key that has tracks:write', async () => {
    const team = await ctx.newTeam();
    const { url } = await newVersion(team);
    const key = await ctx.newApiKey(team, ['tracks:write']);
    const upload = await uploadAttachment(ctx, key, url, pdf, { fileName: 'report.pdf' });
    const res = await withAttachments(url, key, {
      comment: 'from the nightly job',
      attachments: [upload.fileKey],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ authorId: null, attachments: [{ fileName: 'report.pdf' }] });
  });
});

const P = '/api/v1/tracks/{id}/versions/{versionId}/comments';
const cases: MatrixCase[] = [
  {
    method: 'POST',
    path: `${P}/upload`,
    shareLevel: 'comment',
    build: async (team) => ({ url: `${(await newVersion(team)).url}/comments/upload` }),
  },
  {
    method: 'POST',
    path: `${P}/with-attachments`,
    shareLevel: 'comment',
    build: async (team) => {
      const { url } = await newVersion(team);
      const ticket = (await call('POST', `${url}/comments/upload`, team.owner.token)).json();
      await putBytes(ctx, ticket, tinyPng());
      return {
        url: `${url}/comments/with-attachments`,
        payload: { comment: 'm', attachments: [ticket.fileKey] },
      };
    },
  },
];

describeSecurityMatrix(ctx, cases);
