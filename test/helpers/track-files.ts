import { deflateSync } from 'node:zlib';
import { expect } from 'vitest';
import type { TestContext, TestTeam } from './context.ts';
import { putBytes } from './file-flow.ts';
import type { StorageTestContext } from './storage.ts';

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid one-pixel PNG of the given grey level (different levels give different bytes). */
export function tinyPng(grey = 128): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, grey]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

type Ticket = { id: number; uploadUrl: string; headers: Record<string, string>; fileKey: string };

/**
 * The two-step upload of a track file as a client runs it: POST `url` with `payload` (expects `status`),
 * PUT `bytes` to the answered URL, then POST `{url}/{id}/added` when `confirm` is set. Answers the ticket
 * and the confirmed file.
 */
export async function uploadTrackFile(
  ctx: StorageTestContext,
  token: string,
  url: string,
  payload: object | undefined,
  bytes: Buffer,
  options: { status?: number; confirm?: boolean } = {},
) {
  const started = await ctx.request({ method: 'POST', url, token, ...(payload ? { payload } : {}) });
  expect(started.statusCode, started.body).toBe(options.status ?? 201);
  const ticket = started.json() as Ticket;
  const put = await putBytes(ctx, ticket, bytes);
  expect(put.status, put.body.toString()).toBe(200);
  if (options.confirm === false) return { ticket, file: undefined };
  const added = await ctx.request({ method: 'POST', url: `${url}/${ticket.id}/added`, token });
  expect(added.statusCode, added.body).toBe(200);
  return { ticket, file: added.json() };
}

/** Uploads and confirms a cover of the track (a PNG); answers the cover. */
export async function uploadCover(ctx: StorageTestContext, team: TestTeam, trackId: number, grey = 128) {
  const bytes = tinyPng(grey);
  const { file } = await uploadTrackFile(
    ctx,
    team.owner.token,
    `/api/v1/tracks/${trackId}/covers`,
    { fileName: `cover-${grey}.png`, fileSize: bytes.length },
    bytes,
  );
  return file as { id: number; isCurrent: boolean; url: string };
}

/** Starts, PUTs and confirms a media file of the track; answers the media. */
export async function uploadMedia(
  ctx: StorageTestContext,
  team: TestTeam,
  trackId: number,
  bytes: Buffer,
  fileName: string,
  mediaType?: string,
) {
  const { file } = await uploadTrackFile(
    ctx,
    team.owner.token,
    `/api/v1/tracks/${trackId}/media`,
    { fileName, fileSize: bytes.length, ...(mediaType ? { mediaType } : {}) },
    bytes,
  );
  return file as { id: number; url: string; kind: string };
}

/** Asks for a comment upload URL and PUTs the bytes; answers the ticket (its fileKey goes in attachments). */
export async function uploadAttachment(
  ctx: StorageTestContext,
  token: string,
  versionUrl: string,
  bytes: Buffer,
  payload?: object,
) {
  const { ticket } = await uploadTrackFile(ctx, token, `${versionUrl}/comments/upload`, payload, bytes, {
    status: 200,
    confirm: false,
  });
  return ticket;
}

/** A body an upload route must refuse: the status and code it answers, and a detail path when given. */
export type Refusal = [payload: object, status: number, code: string, path?: string];

/** POSTs each payload to `url` and expects its refusal. */
export async function expectRefusals(ctx: TestContext, token: string, url: string, cases: Refusal[]) {
  for (const [payload, status, code, path] of cases) {
    const res = await ctx.request({ method: 'POST', url, token, payload });
    const label = JSON.stringify(payload);
    expect(res.statusCode, label).toBe(status);
    expect(res.json().code, label).toBe(code);
    if (path)
      expect(
        res
          .json()
          .details.map((d: { path: string }) => d.path)
          .join(' '),
        label,
      ).toContain(path);
  }
}
