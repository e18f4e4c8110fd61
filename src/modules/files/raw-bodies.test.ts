import { describe, expect, it } from 'vitest';
import { confirmMedia, putBytes, startMedia, testWav } from '../../../test/helpers/file-flow.ts';
import { useStorageTestContext } from '../../../test/helpers/storage.ts';
import { tinyPng } from '../../../test/helpers/track-files.ts';
import { callWith, versionsBase } from '../../../test/helpers/version-uploads.ts';

const ctx = useStorageTestContext('local');

const OCTET = 'application/octet-stream';

type Ticket = { uploadUrl: string; headers: Record<string, string> };

/** A PUT of `bytes` to the upload URL with the content type the OpenAPI document declares for the body. */
const putAsDocumented = (ticket: Ticket, bytes: Buffer) =>
  putBytes(
    ctx,
    { uploadUrl: ticket.uploadUrl, headers: { ...ticket.headers, 'content-type': OCTET } },
    bytes,
  );

async function mediaRoundTrip(fileName: string, mediaType: string, bytes: Buffer) {
  const team = await ctx.newTeam();
  const started = await startMedia(ctx, team, { fileName, fileSize: bytes.length, mediaType });
  expect(started.statusCode, started.body).toBe(201);
  const put = await putAsDocumented(started.json(), bytes);
  expect(put.status, put.body.toString()).toBe(200);
  const added = await confirmMedia(ctx, team, started.json().id);
  expect(added.statusCode, added.body).toBe(200);
  const download = await ctx.fetchUrl(added.json().url);
  expect(download.status).toBe(200);
  expect(download.body.equals(bytes)).toBe(true);
  // Stored and served under the type the URL names, not the generic one.
  expect(download.headers.get('content-type')).toBe(mediaType);
}

describe('raw-body routes', () => {
  it('are the signed upload and resumable upload routes only: no other operation takes a body that is not JSON', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const raw: string[] = [];
    for (const operations of Object.values(doc.paths) as Record<string, unknown>[]) {
      for (const operation of Object.values(operations) as {
        operationId?: string;
        requestBody?: { content: object };
      }[]) {
        const types = Object.keys(operation.requestBody?.content ?? {});
        if (types.some((type) => type !== 'application/json')) raw.push(operation.operationId!);
      }
    }
    expect(raw.sort()).toEqual(['files.resumable.append', 'files.upload']);
    expect(Object.keys(doc.paths['/api/v1/files/upload'].put.requestBody.content)).toEqual([OCTET]);
    const resumable = doc.paths['/api/v1/uploads/resumable/{uploadId}'].patch;
    expect(Object.keys(resumable.requestBody.content)).toEqual(['application/offset+octet-stream']);
  });

  it.each([
    ['document', 'notes.txt', 'text/plain', Buffer.from('la la la\n')],
    ['audio', 'take.wav', 'audio/wav', testWav(0.1)],
    ['image', 'cover.png', 'image/png', tinyPng()],
    ['video', 'clip.mp4', 'video/mp4', Buffer.alloc(64, 7)],
  ])(
    'take a %s file sent as application/octet-stream, the documented type',
    async (_kind, name, type, bytes) => {
      await mediaRoundTrip(name, type, bytes);
    },
  );

  it('take application/octet-stream on the URL of a new track, a new version and a stem', async () => {
    const team = await ctx.newTeam();
    const call = callWith(ctx);
    const created = await call('POST', '/api/v1/tracks', team.owner.token, {
      title: 'Raw',
      team_id: team.id,
      audio_file_name: 'raw.wav',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect((await putAsDocumented(created.json().upload, testWav(0.1))).status).toBe(200);

    const track = await ctx.newTrack(team);
    const version = await call('POST', `${versionsBase(track)}/create`, team.owner.token, {
      audio_file_name: 'v2.wav',
    });
    expect(version.statusCode, version.body).toBe(201);
    expect((await putAsDocumented(version.json().upload, testWav(0.1))).status).toBe(200);
    const registered = await call(
      'PUT',
      `${versionsBase(track)}/${version.json().id}/audio`,
      team.owner.token,
      {
        fileKey: version.json().upload.fileKey,
      },
    );
    expect(registered.statusCode, registered.body).toBe(200);

    const stem = await call(
      'POST',
      `${versionsBase(track)}/${track.versionId}/stems/upload-url`,
      team.owner.token,
      {
        fileName: 'drums.wav',
      },
    );
    expect(stem.statusCode, stem.body).toBe(200);
    expect((await putAsDocumented(stem.json(), testWav(0.1))).status).toBe(200);
  });

  it('refuse another content type with 415, not a validation error, and store nothing', async () => {
    const team = await ctx.newTeam();
    const started = await startMedia(ctx, team, { fileName: 'a.txt', fileSize: 3, mediaType: 'text/plain' });
    const ticket = started.json();
    const put = await putBytes(
      ctx,
      { uploadUrl: ticket.uploadUrl, headers: { 'content-type': 'text/html' } },
      Buffer.from('abc'),
    );
    expect(put.status).toBe(415);
    expect(JSON.parse(put.body.toString()).code).toBe('unsupported_media_type');
    expect(await ctx.listKeys(`pending/${team.id}/`)).toEqual([]);
  });
});
