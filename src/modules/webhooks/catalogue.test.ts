import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { albumHelpers } from '../../../test/helpers/albums.ts';
import type { TestTeam, TestTrack } from '../../../test/helpers/context.ts';
import { putBytes, testWav } from '../../../test/helpers/file-flow.ts';
import { useStorageTestContext } from '../../../test/helpers/storage.ts';
import { uploadMedia } from '../../../test/helpers/track-files.ts';
import {
  callWith,
  newStem,
  registerVersionAudio,
  versionsBase,
} from '../../../test/helpers/version-uploads.ts';
import { encodeWav } from '../../media/test-audio.ts';
import { CARRY_WAIT_MS } from '../tracks/carry/carry-notes.ts';
import { EVENT_TYPE_NAMES, jsonSchemaOf, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './event-types.ts';
import { deliverWebhooks } from './fixtures/deliver.ts';
import type { CreatedEndpoint } from './fixtures/endpoints.ts';
import { newEndpoint } from './fixtures/endpoints.ts';
import { useQueueReceiver } from './fixtures/queue-receiver.ts';
import { dataComponentName } from './webhooks.openapi.ts';

// Music-tool jobs run FFmpeg at a low priority.
vi.setConfig({ testTimeout: 120_000 });

const ctx = useStorageTestContext('local', { env: { WEBHOOK_ALLOWED_PRIVATE_HOSTS: '127.0.0.1' } });
const receiver = useQueueReceiver(ctx);
const call = callWith(ctx);
const { newAlbum, addTracks } = albumHelpers(ctx);

const ajv = addFormats.default(new Ajv({ strict: false, allErrors: true }));
const validators = new Map(EVENT_TYPE_NAMES.map((type) => [type, ajv.compile(jsonSchemaOf(type))]));

/** The catalogue's types: every type but the workspace's (money, bookings, camps, the test event). */
const CATALOGUE = EVENT_TYPE_NAMES.filter((type) =>
  /^(track|version|stem|comment|review|music_tool|album)\./.test(type),
);

let owner: TestTeam;
let other: TestTeam;
let ownerEndpoint: CreatedEndpoint;
let otherEndpoint: CreatedEndpoint;
const seen = new Set<string>();

beforeAll(async () => {
  owner = await ctx.newTeam();
  other = await ctx.newTeam(owner.owner);
  ownerEndpoint = await newEndpoint(ctx, owner, { url: `${receiver.url}/owner` });
  otherEndpoint = await newEndpoint(ctx, other, { url: `${receiver.url}/other` });
});

type Delivered = { type: string; timestamp: string; data: Record<string, unknown> };

/**
 * Runs the delivery and answers the one delivery of `type` to the owning team's endpoint: its signature
 * verified with the Standard Webhooks library, its data valid against the documented schema and holding
 * `ids`. The other team's endpoint got nothing.
 */
async function expectDelivered(type: WebhookEventType, ids: Record<string, unknown>): Promise<Delivered> {
  await deliverWebhooks(ctx);
  const strays = receiver.received.filter((r) => r.path.endsWith('/other'));
  expect(strays.map((r) => JSON.parse(r.body).type)).toEqual([]);
  const mine = receiver.received
    .filter((r) => r.path.endsWith('/owner'))
    .map((r) => ({ request: r, body: JSON.parse(r.body) as Delivered }))
    .filter((r) => r.body.type === type);
  expect(mine, `one ${type} delivery`).toHaveLength(1);
  const { request, body } = mine[0]!;
  const verified = new Webhook(ownerEndpoint.secret).verify(
    request.body,
    request.headers as Record<string, string>,
  );
  expect(verified).toEqual(body);
  const validate = validators.get(type)!;
  expect(validate(body.data), JSON.stringify(validate.errors)).toBe(true);
  expect(body.data).toMatchObject({ teamId: owner.id, ...ids });
  seen.add(type);
  receiver.received.length = 0;
  return body;
}

async function ok(res: { statusCode: number; body: string }, status = 200) {
  expect(res.statusCode, res.body).toBe(status);
  return JSON.parse(res.body || 'null');
}

/** A track created through the API with its first version's audio uploaded and registered. */
async function trackWithAudio(): Promise<TestTrack> {
  const track = await ctx.newTrack(owner);
  await registerVersionAudio(ctx, owner, track);
  return track;
}

describe('every catalogue event reaches the owning team’s endpoint, signed, valid and with its ids', () => {
  it('example data validates against each type’s schema', () => {
    for (const type of EVENT_TYPE_NAMES) {
      const validate = validators.get(type)!;
      expect(validate(WEBHOOK_EVENT_TYPES[type].example), `${type}: ${JSON.stringify(validate.errors)}`).toBe(
        true,
      );
    }
  });

  it('tracks: created, updated, status changed, shared, unshared, deleted, restored', async () => {
    const created = await ok(
      await call('POST', '/api/v1/tracks/', owner.owner.token, {
        title: '  Night Drive ',
        team_id: owner.id,
        audio_file_name: 'night.wav',
      }),
      201,
    );
    const trackId = created.id as number;
    const event = await expectDelivered('track.created', {
      trackId,
      versionId: created.versionId,
      title: 'Night Drive',
      statusId: 'idea',
    });
    expect(event.data).not.toHaveProperty('upload');

    await ok(
      await call('PATCH', `/api/v1/tracks/${trackId}`, owner.owner.token, { bpm: 118, key: 'F# minor' }),
    );
    await expectDelivered('track.updated', { trackId, changes: { bpm: 118, key: 'F# minor' } });

    await ok(
      await call('PATCH', `/api/v1/tracks/${trackId}/status`, owner.owner.token, { status: 'mixing' }),
    );
    await expectDelivered('track.status_changed', { trackId, from: 'idea', to: 'mixing' });

    await ok(await call('POST', `/api/v1/tracks/${trackId}/teams`, owner.owner.token, { teamId: other.id }));
    await expectDelivered('track.shared', { trackId, sharedWithTeamId: other.id });

    await ok(await call('DELETE', `/api/v1/tracks/${trackId}/teams/${other.id}`, owner.owner.token), 204);
    await expectDelivered('track.unshared', { trackId, sharedWithTeamId: other.id });

    await ok(await call('DELETE', `/api/v1/tracks/${trackId}`, owner.owner.token), 204);
    await expectDelivered('track.deleted', { trackId, mode: 'soft' });

    await ok(await call('POST', `/api/v1/tracks/${trackId}/restore`, owner.owner.token));
    await expectDelivered('track.restored', { trackId });

    await ok(await call('DELETE', `/api/v1/tracks/${trackId}?mode=hard`, owner.owner.token), 204);
    await expectDelivered('track.deleted', { trackId, mode: 'hard' });
  });

  it('track media: added and deleted', async () => {
    const track = await ctx.newTrack(owner);
    const media = await uploadMedia(ctx, owner, track.id, testWav(0.2), 'bounce.wav');
    await expectDelivered('track.media_added', {
      trackId: track.id,
      mediaId: media.id,
      fileName: 'bounce.wav',
    });
    await ok(await call('DELETE', `/api/v1/tracks/${track.id}/media/${media.id}`, owner.owner.token), 204);
    await expectDelivered('track.media_deleted', { trackId: track.id, mediaId: media.id });
  });

  it('versions: created, audio registered, updated, marked final, files added and deleted, deleted', async () => {
    const track = await ctx.newTrack(owner);
    const base = versionsBase(track);
    const version = await ok(
      await call('POST', `${base}/create`, owner.owner.token, { audio_file_name: 'v2.wav' }),
      201,
    );
    const versionId = version.id as number;
    await expectDelivered('version.created', { versionId, trackId: track.id, audioFileName: 'v2.wav' });

    await putBytes(ctx, version.upload, testWav(0.3));
    const registered = await ok(
      await call('PUT', `${base}/${versionId}/audio`, owner.owner.token, { fileKey: version.upload.fileKey }),
    );
    await expectDelivered('version.audio_registered', {
      versionId,
      trackId: track.id,
      fileId: registered.audio.fileId,
    });

    await ok(await call('PATCH', `${base}/${versionId}/metadata`, owner.owner.token, { name: ' Mix 2 ' }));
    await expectDelivered('version.updated', { versionId, trackId: track.id, changes: { name: 'Mix 2' } });

    await ok(await call('PATCH', `${base}/${versionId}/final`, owner.owner.token));
    await expectDelivered('version.marked_final', { versionId, trackId: track.id });

    const files = `${base}/${versionId}/files`;
    const ticket = await ok(
      await call('POST', `${files}/create`, owner.owner.token, { audio_file_name: 'inst.wav' }),
      201,
    );
    await putBytes(ctx, ticket, testWav(0.2));
    const file = await ok(await call('POST', files, owner.owner.token, { fileKey: ticket.fileKey }), 201);
    await expectDelivered('version.file_added', {
      versionId,
      trackId: track.id,
      fileId: file.fileId ?? file.id,
    });

    const fileId = (file.fileId ?? file.id) as number;
    await ok(await call('DELETE', `${files}/${fileId}`, owner.owner.token), 204);
    await expectDelivered('version.file_deleted', { versionId, trackId: track.id, fileId });

    await ok(await call('DELETE', `${base}/${versionId}`, owner.owner.token), 204);
    await expectDelivered('version.deleted', { versionId, trackId: track.id });
  });

  it('versions: notes carried to a new version with audio', async () => {
    const track = await trackWithAudio();
    receiver.received.length = 0;
    const next = await registerVersionAudio(ctx, owner, track);
    await ctx.runJobs();
    ctx.clock.advance(CARRY_WAIT_MS);
    await ctx.runJobs();
    await expectDelivered('version.notes_carried', { versionId: next.id, trackId: track.id });
  });

  it('stems: created, updated (fields and file removed), deleted', async () => {
    const track = await ctx.newTrack(owner);
    const stem = await newStem(ctx, owner, track);
    const ids = { stemId: stem.id, versionId: track.versionId, trackId: track.id };
    await expectDelivered('stem.created', {
      ...ids,
      name: 'Drums',
      fileId: stem.file.fileId ?? stem.file.id,
    });

    const path = `${versionsBase(track)}/${track.versionId}/stems/${stem.id}`;
    await ok(await call('PATCH', path, owner.owner.token, { instrument: 'drums' }));
    await expectDelivered('stem.updated', { ...ids, changes: { instrument: 'drums' } });

    await ok(await call('POST', `${path}/cleanup`, owner.owner.token));
    await expectDelivered('stem.updated', { ...ids, changes: { fileId: null } });

    await ok(await call('DELETE', path, owner.owner.token), 204);
    await expectDelivered('stem.deleted', ids);
  });

  it('comments by a member of a team the track is shared with: created, updated, deleted (to the owner)', async () => {
    const track = await ctx.newTrack(owner);
    const guest = await ctx.addMember(other, 'member');
    await ctx.shareTrack(track.id, other.id, owner.owner.token);
    receiver.received.length = 0;
    await deliverWebhooks(ctx);
    receiver.received.length = 0;
    const comments = `${versionsBase(track)}/${track.versionId}/comments`;
    const comment = await ok(await call('POST', comments, guest.token, { comment: 'Snare too loud' }), 201);
    const ids = { commentId: comment.id, versionId: track.versionId, trackId: track.id };
    await expectDelivered('comment.created', { ...ids, comment: 'Snare too loud', parentId: null });

    await ok(await call('PATCH', `${comments}/${comment.id}`, guest.token, { comment: 'Fixed?' }));
    await expectDelivered('comment.updated', { ...ids, changes: { comment: 'Fixed?' } });

    await ok(await call('POST', `${comments}/${comment.id}/resolve`, guest.token));
    await expectDelivered('comment.resolved', ids);
    await ok(await call('POST', `${comments}/${comment.id}/unresolve`, guest.token));
    await expectDelivered('comment.unresolved', ids);

    await ok(await call('DELETE', `${comments}/${comment.id}`, guest.token), 204);
    await expectDelivered('comment.deleted', { ...ids, removedCommentIds: [comment.id] });
  });

  it('reviews: requested, decided, withdrawn', async () => {
    const track = await ctx.newTrack(owner);
    const reviewer = await ctx.addMember(owner, 'member');
    const review = `${versionsBase(track)}/${track.versionId}/review`;
    await ok(await call('POST', `${review}/request`, owner.owner.token, { reviewerIds: [reviewer.id] }));
    const requested = await expectDelivered('review.requested', {
      versionId: track.versionId,
      trackId: track.id,
      reviewerIds: [reviewer.id],
    });
    const ids = { reviewId: requested.data.reviewId, versionId: track.versionId, trackId: track.id };

    await ok(await call('POST', `${review}/decide`, reviewer.token, { status: 'approved' }));
    await expectDelivered('review.decided', {
      ...ids,
      reviewerId: reviewer.id,
      decision: 'approved',
      status: 'approved',
    });

    await ok(await call('POST', `${review}/request`, owner.owner.token, { reviewerIds: [reviewer.id] }));
    const again = await expectDelivered('review.requested', { versionId: track.versionId });
    await ok(await call('POST', `${review}/withdraw`, owner.owner.token));
    await expectDelivered('review.withdrawn', { ...ids, reviewId: again.data.reviewId });
  });

  it('music-tool jobs: succeeded and failed, sent as the job finishes', async () => {
    const track = await trackWithAudio();
    const [version] = (await ok(await call('GET', versionsBase(track), owner.owner.token))).items.slice(-1);
    const tools = `${versionsBase(track)}/${version.id}/music-tools`;
    const job = await ok(
      await call('POST', tools, owner.owner.token, { operation: 'convert', format: 'mp3' }),
      202,
    );
    await deliverWebhooks(ctx);
    expect(receiver.received.filter((r) => JSON.parse(r.body).type.startsWith('music_tool.'))).toEqual([]);
    await ctx.runJobs();
    const succeeded = await expectDelivered('music_tool.job.succeeded', {
      jobId: job.id,
      versionId: version.id,
      trackId: track.id,
      operation: 'convert',
      parameters: { format: 'mp3' },
    });
    expect(succeeded.data.result).toMatchObject({ format: 'mp3', fileId: expect.any(Number) });

    const silent = await ctx.newTrack(owner);
    const base = versionsBase(silent);
    const created = await ok(
      await call('POST', `${base}/create`, owner.owner.token, { audio_file_name: 'silence.wav' }),
      201,
    );
    await putBytes(ctx, created.upload, encodeWav([new Float32Array(22_050)], 44_100, 'pcm16'));
    await ok(
      await call('PUT', `${base}/${created.id}/audio`, owner.owner.token, {
        fileKey: created.upload.fileKey,
      }),
    );
    await deliverWebhooks(ctx);
    receiver.received.length = 0;
    const failing = await ok(
      await call('POST', `${base}/${created.id}/music-tools`, owner.owner.token, { operation: 'normalize' }),
      202,
    );
    await ctx.runJobs();
    const failed = await expectDelivered('music_tool.job.failed', {
      jobId: failing.id,
      versionId: created.id,
      trackId: silent.id,
      operation: 'normalize',
      error: { code: 'audio_silent', message: expect.any(String) },
    });
    expect(failed.data).not.toHaveProperty('result');
  });

  it('albums: created, updated, status changed, tracks added and removed, deleted', async () => {
    const album = await newAlbum(owner, { title: ' Night Drives ' });
    await expectDelivered('album.created', { albumId: album.id, title: 'Night Drives', statusId: 'idea' });

    await ok(await call('PATCH', `/api/v1/albums/${album.id}`, owner.owner.token, { upc: '012345678905' }));
    await expectDelivered('album.updated', { albumId: album.id, changes: { upc: '012345678905' } });

    await ok(
      await call('PATCH', `/api/v1/albums/${album.id}/status`, owner.owner.token, { status: 'ready' }),
    );
    await expectDelivered('album.status_changed', { albumId: album.id, from: 'idea', to: 'ready' });

    const first = await ctx.newTrack(owner);
    const second = await ctx.newTrack(owner);
    await addTracks(owner, album.id, [second.id, first.id]);
    await expectDelivered('album.tracks_added', { albumId: album.id, trackIds: [second.id, first.id] });

    await ok(await call('DELETE', `/api/v1/albums/${album.id}/tracks/${first.id}`, owner.owner.token), 204);
    await expectDelivered('album.track_removed', { albumId: album.id, trackId: first.id });

    await ok(await call('DELETE', `/api/v1/albums/${album.id}`, owner.owner.token), 204);
    await expectDelivered('album.deleted', { albumId: album.id, title: 'Night Drives' });
  });

  it('covered every catalogue type above', () => {
    expect(CATALOGUE.filter((type) => !seen.has(type))).toEqual([]);
  });
});

describe('whose endpoints hear of a shared track', () => {
  it('changes by the owning team reach its endpoints only, never the team it is shared with', async () => {
    const track = await ctx.newTrack(owner, { title: 'Shared' });
    await ctx.shareTrack(track.id, other.id, owner.owner.token);
    await ok(await call('PATCH', `/api/v1/tracks/${track.id}`, owner.owner.token, { title: 'Shared (v2)' }));
    await ok(
      await call('POST', `${versionsBase(track)}/${track.versionId}/comments`, other.owner.token, {
        comment: 'From the other team',
      }),
      201,
    );
    await deliverWebhooks(ctx);
    const byPath = (suffix: string) =>
      receiver.received.filter((r) => r.path.endsWith(suffix)).map((r) => JSON.parse(r.body).type);
    expect(byPath('/owner').sort()).toEqual(['comment.created', 'track.shared', 'track.updated']);
    expect(byPath('/other')).toEqual([]);
    expect(otherEndpoint.teamId).toBe(other.id);
  });

  it('an album of the other team holding the shared track tells that team alone', async () => {
    const track = await ctx.newTrack(owner);
    await ctx.shareTrack(track.id, other.id, owner.owner.token);
    const album = await newAlbum(other);
    await addTracks(other, album.id, [track.id]);
    await deliverWebhooks(ctx);
    const other_ = receiver.received.filter((r) => r.path.endsWith('/other')).map((r) => JSON.parse(r.body));
    expect(other_.map((b) => b.type)).toEqual(['album.created', 'album.tracks_added']);
    expect(other_[1].data).toMatchObject({ albumId: album.id, teamId: other.id, trackIds: [track.id] });
    const owners = receiver.received
      .filter((r) => r.path.endsWith('/owner'))
      .map((r) => JSON.parse(r.body).type);
    expect(owners).toEqual(['track.shared']);
  });
});

describe('the OpenAPI document', () => {
  it('has one signed POST per event type in `webhooks`, its data a named component schema', async () => {
    const doc = (await ok(await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' }))) as {
      webhooks: Record<
        string,
        {
          post: {
            parameters: { name: string; in: string }[];
            requestBody: {
              content: Record<
                string,
                { schema: { required: string[]; properties: Record<string, unknown> } }
              >;
            };
          };
        }
      >;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(doc.webhooks)).toEqual(EVENT_TYPE_NAMES);
    for (const type of EVENT_TYPE_NAMES) {
      const { post } = doc.webhooks[type]!;
      const body = post.requestBody.content['application/json']!;
      expect(body.schema.required).toEqual(['type', 'timestamp', 'data']);
      expect(body.schema.properties.data).toEqual({
        $ref: `#/components/schemas/${dataComponentName(type)}`,
      });
      const component = inlined(doc.components.schemas[dataComponentName(type)], doc.components.schemas);
      expect(component).toMatchObject(jsonSchemaOf(type));
      expect(post.parameters.map((p) => `${p.in}:${p.name}`)).toEqual([
        'header:webhook-id',
        'header:webhook-timestamp',
        'header:webhook-signature',
      ]);
    }
    expect(dataComponentName('music_tool.job.succeeded')).toBe('WebhookMusicToolJobSucceeded');
  });
});

/** A component schema with the named schemas it refers to put back in place. */
function inlined(schema: unknown, schemas: Record<string, unknown>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlined(item, schemas));
  if (!schema || typeof schema !== 'object') return schema;
  const { $ref, ...rest } = schema as Record<string, unknown>;
  const target =
    typeof $ref === 'string' ? (schemas[$ref.replace('#/components/schemas/', '')] as object) : undefined;
  const entries = Object.entries({ ...target, ...rest }).map(([k, v]) => [k, inlined(v, schemas)]);
  return Object.fromEntries(entries);
}
