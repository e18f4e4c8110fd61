import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { S3Client } from '@aws-sdk/client-s3';
import { S3Store as TusS3Store } from '@tus/s3-store';
import { beforeAll, describe, expect, it } from 'vitest';
import { putBytes, testWav } from '../../../../test/helpers/file-flow.ts';
import { sendInterrupted } from '../../../../test/helpers/resumable-upload.ts';
import type { StorageDriver, StorageTestContext } from '../../../../test/helpers/storage.ts';
import { useBucketPathWithoutSlash } from '../../../storage/s3-test-server.ts';
import { RESUMABLE_PREFIX } from './resumable-stores.ts';
import { RESUMABLE_PATH } from './resumable-tickets.ts';

type Resumable = { url: string; token: string };
type MediaTicket = { id: number; fileKey: string; uploadUrl: string; headers: Record<string, string> };

const OCTETS = 'application/offset+octet-stream';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const MiB = 1024 * 1024;

async function codeOf(res: Response): Promise<string> {
  return ((await res.json()) as { code: string }).code;
}

function encodeMetadata(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([name, value]) => `${name} ${Buffer.from(value).toString('base64')}`)
    .join(',');
}

/**
 * Resumable (tus) uploads against a store: a large file sent with interruptions and registered, and every
 * refusal of the creation and of later requests.
 */
export function describeResumableUploads(ctx: StorageTestContext, driver: StorageDriver) {
  const origin = () => {
    const address = ctx.app.server.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  };
  const endpoint = () => `${origin()}${RESUMABLE_PATH}`;

  const tusRequest = (method: string, url: string, headers: Record<string, string> = {}, body?: Buffer) =>
    fetch(url.startsWith('http') ? url : `${origin()}${url}`, {
      method,
      headers: { 'tus-resumable': '1.0.0', ...headers },
      ...(body ? { body } : {}),
    });

  const create = (resumable: Resumable, length: number, filetype = 'audio/wav') =>
    tusRequest('POST', endpoint(), {
      'upload-length': String(length),
      'upload-metadata': encodeMetadata({ token: resumable.token, filetype, filename: 'take.wav' }),
    });

  async function mediaTicket(team: Awaited<ReturnType<StorageTestContext['newTeam']>>, body: object = {}) {
    const track = await ctx.newTrack(team);
    const res = await ctx.request({
      method: 'POST',
      url: `/api/v1/tracks/${track.id}/media`,
      token: team.owner.token,
      payload: { fileName: 'take.wav', ...body },
    });
    expect(res.statusCode, res.body).toBe(201);
    const ticket = res.json() as MediaTicket & { resumable: Resumable };
    return { track, ticket, resumable: ticket.resumable };
  }

  describe(`resumable uploads (${driver})`, () => {
    beforeAll(() => {
      // The test server wants bucket-level requests (a termination's DeleteObjects) without a trailing slash.
      const { datastore } = ctx.app.services.resumableUploads;
      if (datastore instanceof TusS3Store) {
        useBucketPathWithoutSlash((datastore as unknown as { client: S3Client }).client);
      }
    });

    it('sends a 50 MB stem in three pieces (two interruptions) and registers exactly those bytes', async () => {
      const team = await ctx.newTeam();
      const track = await ctx.newTrack(team);
      const bytes = testWav(300);
      expect(bytes.length).toBeGreaterThan(50 * 1000 * 1000);
      const asked = await ctx.request({
        method: 'POST',
        url: `/api/v1/tracks/${track.id}/versions/${track.versionId}/stems/upload-url`,
        token: team.owner.token,
        payload: { fileName: 'drums.wav', fileSize: bytes.length },
      });
      expect(asked.statusCode, asked.body).toBe(200);
      const ticket = asked.json() as { stemKey: string; resumable: { url: string; token: string } };
      expect(ticket.resumable.url).toMatch(/\/api\/v1\/uploads\/resumable$/);
      expect(await sendInterrupted(endpoint(), ticket.resumable, bytes, [0.3, 0.6])).toBe(2);

      const res = await ctx.request({
        method: 'POST',
        url: `/api/v1/tracks/${track.id}/versions/${track.versionId}/stems`,
        token: team.owner.token,
        payload: { name: 'Drums', stemKey: ticket.stemKey },
      });
      expect(res.statusCode, res.body).toBe(201);
      const stem = res.json() as { file: { url: string } };
      const stored = await ctx.fetchUrl(stem.file.url);
      expect(stored.status).toBe(200);
      expect(sha256(stored.body)).toBe(sha256(bytes));
      // Nothing of the upload is left behind in the store.
      expect(await ctx.listKeys(RESUMABLE_PREFIX)).toEqual([]);
    }, 60_000);

    it('answers every ticket with its resumable way in', async () => {
      const team = await ctx.newTeam();
      const { resumable } = await mediaTicket(team);
      expect(resumable.url).toMatch(/^https?:\/\/.+\/api\/v1\/uploads\/resumable$/);
      expect(resumable.token).toMatch(/^[\w-]+\.[\w-]{43}$/);
      const options = await fetch(endpoint(), { method: 'OPTIONS' });
      expect(options.status).toBe(204);
      expect(options.headers.get('tus-version')).toContain('1.0.0');
    });

    it('refuses a missing, tampered or expired token (403)', async () => {
      const team = await ctx.newTeam();
      const { resumable } = await mediaTicket(team);
      const none = await tusRequest('POST', endpoint(), {
        'upload-length': '10',
        'upload-metadata': encodeMetadata({ filetype: 'audio/wav' }),
      });
      expect(none.status).toBe(403);
      expect(await codeOf(none)).toBe('invalid_signature');
      const tampered = await create({ ...resumable, token: `${resumable.token.slice(0, -2)}AA` }, 10);
      expect(tampered.status).toBe(403);
      ctx.clock.advance((ctx.config.storage.uploadUrlTtlSeconds + 1) * 1000);
      const expired = await create(resumable, 10);
      expect(expired.status).toBe(403);
      expect(await codeOf(expired)).toBe('url_expired');
    });

    it('refuses a length over the ticket, the wrong type and a length over the quota (413, 415, 413)', async () => {
      const team = await ctx.newTeam();
      const sized = await mediaTicket(team, { fileSize: 100 });
      const tooLong = await create(sized.resumable, 101);
      expect(tooLong.status).toBe(413);
      expect(await codeOf(tooLong)).toBe('payload_too_large');
      const { resumable } = await mediaTicket(team);
      const wrongType = await create(resumable, 10, 'image/png');
      expect(wrongType.status).toBe(415);
      await ctx.setQuota(team, 1000);
      const overQuota = await create(resumable, 2000);
      expect(overQuota.status).toBe(413);
      expect(await codeOf(overQuota)).toBe('quota_exceeded');
      // The quota is claimed at creation and handed back by termination.
      const first = await create(resumable, 600);
      expect(first.status).toBe(201);
      expect((await create(resumable, 600)).status).toBe(413);
      const terminated = await tusRequest('DELETE', first.headers.get('location')!);
      expect(terminated.status).toBe(204);
      expect((await create(resumable, 600)).status).toBe(201);
      const deferred = await tusRequest('POST', endpoint(), {
        'upload-defer-length': '1',
        'upload-length': '5',
        'upload-metadata': encodeMetadata({ token: resumable.token }),
      });
      expect(deferred.status).toBe(400);
    });

    it('refuses an upload of a registered ticket (409) and knows no unknown upload (404)', async () => {
      const team = await ctx.newTeam();
      const { track, ticket, resumable } = await mediaTicket(team);
      const started = await create(resumable, testWav(0.2).length);
      expect(started.status).toBe(201);
      const location = started.headers.get('location')!;
      expect(location).toMatch(/^\/api\/v1\/uploads\/resumable\/[0-9a-f]{32}$/);
      const put = await putBytes(ctx, ticket, testWav(0.2));
      expect(put.status).toBe(200);
      const registered = await ctx.request({
        method: 'POST',
        url: `/api/v1/tracks/${track.id}/media/${ticket.id}/added`,
        token: team.owner.token,
        payload: {},
      });
      expect(registered.statusCode, registered.body).toBe(200);
      const again = await create(resumable, 10);
      expect(again.status).toBe(409);
      expect(await codeOf(again)).toBe('upload_closed');
      const late = await tusRequest(
        'PATCH',
        location,
        { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        testWav(0.2),
      );
      expect(late.status).toBe(409);
      const unknown = await tusRequest('HEAD', `${RESUMABLE_PATH}/${'0'.repeat(32)}`);
      expect(unknown.status).toBe(404);
      const wrongOffset = await create(resumable, 10);
      expect(wrongOffset.status).toBe(409);
    });

    it('refuses a PATCH at the wrong offset or of the wrong type, and bytes past the length', async () => {
      const team = await ctx.newTeam();
      const { resumable } = await mediaTicket(team);
      const created = await create(resumable, 8);
      const location = created.headers.get('location')!;
      const patch = (offset: number, body: Buffer, type = 'application/offset+octet-stream') =>
        tusRequest('PATCH', location, { 'upload-offset': String(offset), 'content-type': type }, body);
      expect((await patch(3, Buffer.from('abc'))).status).toBe(409);
      expect((await patch(0, Buffer.from('abc'), 'application/json')).status).toBe(415);
      expect((await patch(0, Buffer.from('abcdefghij'))).status).toBe(413);
      const head = await tusRequest('HEAD', location);
      expect(head.status).toBe(200);
      expect(head.headers.get('upload-length')).toBe('8');
    });

    it('takes the rest of an upload after its URL expired, while the upload is open', async () => {
      const team = await ctx.newTeam();
      const track = await ctx.newTrack(team);
      const stems = `/api/v1/tracks/${track.id}/versions/${track.versionId}/stems`;
      const bytes = testWav(0.5);
      const asked = await ctx.request({
        method: 'POST',
        url: `${stems}/upload-url`,
        token: team.owner.token,
        payload: { fileName: 'bass.wav' },
      });
      const ticket = asked.json() as { stemKey: string; resumable: Resumable };
      const location = (await create(ticket.resumable, bytes.length)).headers.get('location')!;
      const patch = (offset: number, body: Buffer) =>
        tusRequest('PATCH', location, { 'upload-offset': String(offset), 'content-type': OCTETS }, body);
      expect((await patch(0, bytes.subarray(0, 1000))).status).toBe(204);
      // A key registers it: the owner's session token expires meanwhile too.
      const key = await ctx.newApiKey(team, ['tracks:write']);
      ctx.clock.advance((ctx.config.storage.uploadUrlTtlSeconds + 60) * 1000);
      expect((await patch(1000, bytes.subarray(1000))).status).toBe(204);
      const registered = await ctx.request({
        method: 'POST',
        url: stems,
        token: key,
        payload: { name: 'Bass', stemKey: ticket.stemKey },
      });
      expect(registered.statusCode, registered.body).toBe(201);
      expect(registered.json().file.size).toBe(bytes.length);
    });

    it('removes an unfinished upload once its ticket expired', async () => {
      const team = await ctx.newTeam();
      const { resumable } = await mediaTicket(team);
      const created = await create(resumable, 10 * MiB);
      const location = created.headers.get('location')!;
      const sent = await tusRequest(
        'PATCH',
        location,
        { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        Buffer.alloc(6 * MiB, 1),
      );
      expect(sent.status).toBe(204);
      const id = location.split('/').pop()!;
      expect((await ctx.listKeys(`${RESUMABLE_PREFIX}${id}`)).length).toBeGreaterThan(0);
      ctx.clock.advance((ctx.config.storage.pendingUploadTtlSeconds + 60) * 1000);
      await ctx.runJobs();
      expect(await ctx.listKeys(`${RESUMABLE_PREFIX}${id}`)).toEqual([]);
      expect((await tusRequest('HEAD', location)).status).toBe(404);
    });
  });
}
