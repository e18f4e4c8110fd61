import { expect } from 'vitest';
import type { TestTeam, TestTrack } from './context.ts';
import { putBytes, testWav } from './file-flow.ts';
import type { StorageTestContext } from './storage.ts';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** A JSON request with a bearer token. */
export const callWith =
  (ctx: StorageTestContext) => (method: Method, url: string, token: string, payload?: object) =>
    ctx.request({ method, url, token, ...(payload ? { payload } : {}) });

export const versionsBase = (track: TestTrack) => `/api/v1/tracks/${track.id}/versions`;

/** Asks for a stem upload URL of the version and PUTs `bytes` there; answers the upload URL's answer. */
export async function uploadStemBytes(
  ctx: StorageTestContext,
  team: TestTeam,
  track: TestTrack,
  versionId: number,
  bytes: Buffer = testWav(0.2),
  fileName = 'drums.wav',
) {
  const res = await callWith(ctx)(
    'POST',
    `${versionsBase(track)}/${versionId}/stems/upload-url`,
    team.owner.token,
    { fileName },
  );
  expect(res.statusCode, res.body).toBe(200);
  const ticket = res.json();
  const put = await putBytes(ctx, ticket, bytes);
  expect(put.status, put.body.toString()).toBe(200);
  return ticket as {
    pendingKey: string;
    stemKey: string;
    uploadUrl: string;
    headers: Record<string, string>;
  };
}

/** A stem registered on the version (upload URL, PUT, register); answers the stem. */
export async function newStem(
  ctx: StorageTestContext,
  team: TestTeam,
  track: TestTrack,
  versionId = track.versionId,
  name = 'Drums',
) {
  const { stemKey } = await uploadStemBytes(ctx, team, track, versionId);
  const res = await callWith(ctx)('POST', `${versionsBase(track)}/${versionId}/stems`, team.owner.token, {
    name,
    stemKey,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Uploads and registers the main audio of the track's first version. */
export async function registerVersionAudio(ctx: StorageTestContext, team: TestTeam, track: TestTrack) {
  const call = callWith(ctx);
  const base = versionsBase(track);
  const created = await call('POST', `${base}/create`, team.owner.token, { audio_file_name: 'mix.wav' });
  expect(created.statusCode, created.body).toBe(201);
  const version = created.json();
  const put = await putBytes(ctx, version.upload, testWav(0.3));
  expect(put.status, put.body.toString()).toBe(200);
  const registered = await call('PUT', `${base}/${version.id}/audio`, team.owner.token, {
    fileKey: version.upload.fileKey,
  });
  expect(registered.statusCode, registered.body).toBe(200);
  return registered.json() as { id: number; audio: { url: string; downloadUrl: string; fileId: number } };
}
