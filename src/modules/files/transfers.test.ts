import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startMedia, tamper, testWav, uploadMedia } from '../../../test/helpers/file-flow.ts';
import { useStorageTestContext } from '../../../test/helpers/storage.ts';
import { signBlobToken } from '../../storage/signing.ts';

const ctx = useStorageTestContext('local');

const pathOf = (url: string) => {
  const parsed = new URL(url, 'http://localhost');
  return parsed.pathname + parsed.search;
};

async function ticketFor(size: number, mediaType = 'text/plain', fileName = 'notes.txt') {
  const team = await ctx.newTeam();
  const res = await startMedia(ctx, team, { fileName, fileSize: size, mediaType });
  expect(res.statusCode, res.body).toBe(201);
  return { team, ticket: res.json() };
}

const put = (url: string, payload: Buffer | string, headers: Record<string, string>) =>
  ctx.app.inject({ method: 'PUT', url: pathOf(url), payload, headers });

describe('PUT /api/v1/files/upload', () => {
  it('stores the body and answers its size and ETag', async () => {
    const { ticket } = await ticketFor(5);
    const res = await put(ticket.uploadUrl, 'hello', ticket.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ key: ticket.fileKey, size: 5 });
    expect(res.headers.etag).toBe(res.json().etag);
  });

  it('answers 403 for a tampered, truncated, foreign or download token, before reading the body', async () => {
    const { ticket } = await ticketFor(5);
    const token = new URL(ticket.uploadUrl).searchParams.get('token')!;
    const download = signBlobToken(
      { method: 'GET', key: ticket.fileKey, expiresAt: Math.floor(Date.now() / 1000) + 60 },
      'another secret of enough length for a key',
    );
    for (const url of [
      tamper(ticket.uploadUrl),
      `/api/v1/files/upload?token=${token.slice(0, -5)}`,
      `/api/v1/files/upload?token=${download}`,
      '/api/v1/files/upload?token=abc.def',
    ]) {
      const res = await put(url, 'hello', ticket.headers);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().code).toBe('invalid_signature');
    }
    expect(await ctx.listKeys(ticket.fileKey)).toEqual([]);
  });

  it('answers 403 url_expired once the URL has expired', async () => {
    const { ticket } = await ticketFor(5);
    ctx.clock.advance(16 * 60_000);
    try {
      const res = await put(ticket.uploadUrl, 'hello', ticket.headers);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('url_expired');
    } finally {
      ctx.clock.advance(-16 * 60_000);
    }
  });

  it('refuses another content type (415) and a declared length over the limit (413)', async () => {
    const { ticket } = await ticketFor(5);
    const wrongType = await put(ticket.uploadUrl, 'hello', { 'content-type': 'application/json' });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json().code).toBe('unsupported_media_type');
    const noType = await ctx.app.inject({
      method: 'PUT',
      url: pathOf(ticket.uploadUrl),
      payload: Buffer.from('hello'),
    });
    expect(noType.statusCode).toBe(415);
    const tooLong = await put(ticket.uploadUrl, 'hello world', ticket.headers);
    expect(tooLong.statusCode).toBe(413);
    expect(tooLong.json().code).toBe('payload_too_large');
    expect(await ctx.listKeys(ticket.fileKey)).toEqual([]);
  });

  it('stops a chunked body (no Content-Length) once it passes the limit, storing nothing', async () => {
    const { ticket } = await ticketFor(1000);
    const address = ctx.app.server.address() as { port: number };
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: address.port,
          method: 'PUT',
          path: pathOf(ticket.uploadUrl),
          headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 4; i++) req.write(Buffer.alloc(400, 66));
      req.end();
    });
    expect(status).toBe(413);
    expect(await ctx.listKeys(ticket.fileKey)).toEqual([]);
  });

  it('takes no more bytes once the upload is registered or discarded (409 upload_closed)', async () => {
    const team = await ctx.newTeam();
    const wav = testWav(0.1);
    const created = (
      await startMedia(ctx, team, { fileName: 'a.wav', fileSize: wav.length, mediaType: 'audio/wav' })
    ).json();
    expect((await put(created.uploadUrl, wav, created.headers)).statusCode).toBe(200);
    const added = await ctx.request({
      method: 'POST',
      url: `/api/v1/teams/${team.id}/media/${created.id}/added`,
      token: team.owner.token,
    });
    expect(added.statusCode).toBe(200);
    const replay = await put(created.uploadUrl, wav, created.headers);
    expect(replay.statusCode).toBe(409);
    expect(replay.json().code).toBe('upload_closed');
    expect(await ctx.listKeys(`pending/${team.id}/`)).toEqual([]);
  });

  it('documents its body as binary in the OpenAPI document', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const operation = doc.paths['/api/v1/files/upload'].put;
    expect(operation.security).toEqual([]);
    expect(Object.keys(operation.requestBody.content)).toContain('application/octet-stream');
    expect(operation.responses['200']).toBeDefined();
    expect(doc.paths['/api/v1/files/download'].get.responses['206']).toBeDefined();
  });
});

describe('GET /api/v1/files/download', () => {
  it('serves whole files, single ranges, 416, If-Range, If-None-Match and HEAD', async () => {
    const team = await ctx.newTeam();
    const wav = testWav(0.2);
    const media = await uploadMedia(ctx, team, wav);
    const url = pathOf(media.url);

    const whole = await ctx.app.inject({ method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(wav)).toBe(true);
    expect(whole.headers).toMatchObject({
      'content-type': 'audio/wav',
      'content-length': String(wav.length),
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
    });
    const etag = whole.headers.etag as string;

    const ranged = await ctx.app.inject({ method: 'GET', url, headers: { range: 'bytes=10-19' } });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload.equals(wav.subarray(10, 20))).toBe(true);
    expect(ranged.headers['content-range']).toBe(`bytes 10-19/${wav.length}`);

    const open = await ctx.app.inject({ method: 'GET', url, headers: { range: `bytes=${wav.length - 4}-` } });
    expect(open.statusCode).toBe(206);
    expect(open.rawPayload.equals(wav.subarray(wav.length - 4))).toBe(true);

    const outside = await ctx.app.inject({ method: 'GET', url, headers: { range: `bytes=${wav.length}-` } });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${wav.length}`);
    expect(outside.json().code).toBe('range_not_satisfiable');

    const stale = await ctx.app.inject({
      method: 'GET',
      url,
      headers: { range: 'bytes=0-9', 'if-range': '"old"' },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(wav.length);
    const current = await ctx.app.inject({
      method: 'GET',
      url,
      headers: { range: 'bytes=0-9', 'if-range': etag },
    });
    expect(current.statusCode).toBe(206);

    const cached = await ctx.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(cached.statusCode).toBe(304);
    expect(cached.rawPayload.length).toBe(0);

    const head = await ctx.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(wav.length));
    expect(head.rawPayload.length).toBe(0);
  });

  it('answers 403 for a tampered or expired URL and 404 once the file is deleted', async () => {
    const team = await ctx.newTeam();
    const media = await uploadMedia(ctx, team, testWav(0.1));
    const forged = await ctx.app.inject({ method: 'GET', url: pathOf(tamper(media.url)) });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().code).toBe('invalid_signature');
    ctx.clock.advance(10 * 60_000);
    try {
      const expired = await ctx.app.inject({ method: 'GET', url: pathOf(media.url) });
      expect(expired.statusCode).toBe(403);
      expect(expired.json().code).toBe('url_expired');
    } finally {
      ctx.clock.advance(-10 * 60_000);
    }
    await ctx.request({
      method: 'DELETE',
      url: `/api/v1/teams/${team.id}/media/${media.id}`,
      token: team.owner.token,
    });
    const gone = await ctx.app.inject({ method: 'GET', url: pathOf(media.url) });
    expect(gone.statusCode).toBe(404);
  });

  it('wants a token (400 without one)', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/files/download' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
  });
});
