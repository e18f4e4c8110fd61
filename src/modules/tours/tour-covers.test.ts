import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestTeam } from '../../../test/helpers/context.ts';
import { expectNoOrphans, putBytes, RESUMABLE_TICKET } from '../../../test/helpers/file-flow.ts';
import { useStorageTestContext } from '../../../test/helpers/storage.ts';
import { expectRefusals, type Refusal, tinyPng, uploadTrackFile } from '../../../test/helpers/track-files.ts';
import { domainEvents } from '../../db/schema/index.ts';
import { uploadTourCover } from './tours.test-support.ts';

const ctx = useStorageTestContext('local');

const coversUrl = (tourId: number, suffix = '') => `/api/v1/tours/${tourId}/covers${suffix}`;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
  ctx.request({ method, url, token, ...(payload ? { payload } : {}) });

/** A public URL fetched as anyone would: no token. */
const fetchPublic = (publicUrl: string, headers: Record<string, string> = {}) =>
  ctx.request({ method: 'GET', url: new URL(publicUrl).pathname, headers });

let team: TestTeam;

beforeAll(async () => {
  team = await ctx.newTeam();
});

async function newTour(owner = team) {
  const res = await call('POST', '/api/v1/tours/', owner.owner.token, { teamId: owner.id, name: 'Run' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number };
}

async function getTour(tourId: number) {
  const res = await call('GET', `/api/v1/tours/${tourId}`, team.owner.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const upload = (tourId: number, grey = 128) => uploadTourCover(ctx, team, tourId, grey);

/** The types of the events about the tour, in the order of the log. */
async function actionsOf(tourId: number) {
  const rows = await ctx.database.db
    .select({ type: domainEvents.type })
    .from(domainEvents)
    .where(and(eq(domainEvents.subjectType, 'tour'), eq(domainEvents.subjectId, String(tourId))))
    .orderBy(asc(domainEvents.position));
  return rows.map((r) => r.type);
}

describe('tour covers', () => {
  it('uploads a cover in two steps; the first confirmed becomes current and the tour shows it', async () => {
    const tour = await newTour();
    const png = tinyPng(10);
    const started = await call('POST', coversUrl(tour.id), team.owner.token, {
      fileName: ' Poster.png ',
      fileSize: png.length,
    });
    expect(started.statusCode, started.body).toBe(201);
    const ticket = started.json();
    expect(ticket).toEqual({
      id: expect.any(Number),
      tourId: tour.id,
      status: 'pending',
      fileName: 'Poster.png',
      fileSize: png.length,
      mediaType: 'image/png',
      isCurrent: false,
      isPublic: false,
      publicUrl: null,
      createdAt: expect.any(String),
      uploadUrl: expect.any(String),
      method: 'PUT',
      headers: expect.objectContaining({ 'content-type': 'image/png' }),
      fileKey: expect.stringMatching(new RegExp(`^pending/${team.id}/`)),
      expiresAt: expect.any(String),
      resumable: RESUMABLE_TICKET,
    });
    const early = await call('POST', coversUrl(tour.id, `/${ticket.id}/added`), team.owner.token);
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('upload_missing');
    expect((await call('GET', coversUrl(tour.id), team.owner.token)).json().items).toEqual([]);
    expect((await getTour(tour.id)).cover).toBeNull();

    expect((await putBytes(ctx, ticket, png)).status).toBe(200);
    const added = await call('POST', coversUrl(tour.id, `/${ticket.id}/added`), team.owner.token);
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toEqual({
      id: ticket.id,
      tourId: tour.id,
      status: 'ready',
      fileName: 'Poster.png',
      fileSize: png.length,
      mediaType: 'image/png',
      isCurrent: true,
      isPublic: false,
      publicUrl: null,
      createdAt: expect.any(String),
      url: expect.any(String),
      downloadUrl: expect.any(String),
      urlExpiresAt: expect.any(String),
    });
    const again = await call('POST', coversUrl(tour.id, `/${ticket.id}/added`), team.owner.token, {});
    expect(again.json()).toMatchObject({ id: ticket.id, isCurrent: true });

    const shown = await getTour(tour.id);
    expect(shown.cover).toEqual({
      id: ticket.id,
      fileName: 'Poster.png',
      mediaType: 'image/png',
      url: expect.any(String),
      urlExpiresAt: expect.any(String),
      isPublic: false,
      publicUrl: null,
    });
    const image = await ctx.fetchUrl(shown.cover.url);
    expect(image.status).toBe(200);
    expect(image.body.equals(png)).toBe(true);
    const listed = (await call('GET', `/api/v1/tours/?teamId=${team.id}`, team.owner.token)).json();
    expect(listed.items.find((t: { id: number }) => t.id === tour.id).cover.id).toBe(ticket.id);

    const second = await upload(tour.id, 20);
    expect(second.isCurrent).toBe(false);
    const covers = (await call('GET', coversUrl(tour.id), team.owner.token)).json();
    expect(covers.items.map((c: { id: number; isCurrent: boolean }) => [c.id, c.isCurrent])).toEqual([
      [second.id, false],
      [ticket.id, true],
    ]);
    const paged = await call('GET', coversUrl(tour.id, '?limit=1'), team.owner.token);
    expect(paged.json().items.map((c: { id: number }) => c.id)).toEqual([second.id]);
    const rest = await call(
      'GET',
      coversUrl(tour.id, `?limit=1&cursor=${paged.json().nextCursor}`),
      team.owner.token,
    );
    expect(rest.json()).toEqual({ items: [expect.objectContaining({ id: ticket.id })], nextCursor: null });
    expect(await actionsOf(tour.id)).toEqual(['tour.created', 'tour.cover_added', 'tour.cover_added']);
  });

  it('switches the current cover with PUT (no body, or {}); a pending cover is 409, a missing one 404', async () => {
    const tour = await newTour();
    const first = await upload(tour.id, 1);
    const second = await upload(tour.id, 2);
    const set = await call('PUT', coversUrl(tour.id, `/${second.id}/current`), team.owner.token);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ id: second.id, isCurrent: true, status: 'ready' });
    expect((await getTour(tour.id)).cover.id).toBe(second.id);
    const withBody = await call('PUT', coversUrl(tour.id, `/${first.id}/current`), team.owner.token, {});
    expect(withBody.statusCode).toBe(200);
    expect((await getTour(tour.id)).cover.id).toBe(first.id);
    const extra = await call('PUT', coversUrl(tour.id, `/${second.id}/current`), team.owner.token, { x: 1 });
    expect(extra.statusCode).toBe(400);
    expect((await getTour(tour.id)).cover.id).toBe(first.id);

    const pending = (
      await call('POST', coversUrl(tour.id), team.owner.token, { fileName: 'later.png' })
    ).json();
    for (const [suffix, payload] of [
      [`/${pending.id}/current`, undefined],
      [`/${pending.id}/public`, { isPublic: true }],
    ] as const) {
      const refused = await call('PUT', coversUrl(tour.id, suffix), team.owner.token, payload);
      expect(refused.statusCode, suffix).toBe(409);
      expect(refused.json().code).toBe('conflict');
    }
    expect((await call('PUT', coversUrl(tour.id, '/999999/current'), team.owner.token)).statusCode).toBe(404);
    // A cover of another tour of the same team is not this tour's cover.
    const other = await newTour();
    for (const [method, suffix, payload] of [
      ['PUT', `/${first.id}/current`, undefined],
      ['PUT', `/${first.id}/public`, { isPublic: true }],
      ['POST', `/${pending.id}/added`, undefined],
      ['DELETE', `/${first.id}`, undefined],
    ] as const) {
      const res = await call(method, coversUrl(other.id, suffix), team.owner.token, payload);
      expect(res.statusCode, `${method} ${suffix}`).toBe(404);
    }
    expect(await actionsOf(tour.id)).toContain('tour.cover_set');
  });

  it('serves a public cover to anyone until it is made private or deleted', async () => {
    const tour = await newTour();
    const cover = await upload(tour.id, 30);
    const other = await upload(tour.id, 31);
    expect(cover).toMatchObject({ isPublic: false, publicUrl: null });

    const made = await call('PUT', coversUrl(tour.id, `/${cover.id}/public`), team.owner.token, {
      isPublic: true,
    });
    expect(made.statusCode, made.body).toBe(200);
    const { publicUrl } = made.json();
    expect(made.json()).toMatchObject({ id: cover.id, isPublic: true, isCurrent: true });
    expect(publicUrl).toMatch(/\/api\/v1\/public\/tour-covers\/[A-Za-z0-9_-]{43}$/);
    expect((await getTour(tour.id)).cover).toMatchObject({ id: cover.id, isPublic: true, publicUrl });
    const listed = (await call('GET', coversUrl(tour.id), team.owner.token)).json().items;
    expect(
      listed.map((c: { isPublic: boolean; publicUrl: string | null }) => [c.isPublic, c.publicUrl]),
    ).toEqual([
      [false, null],
      [true, publicUrl],
    ]);

    // Anyone, over a real connection, without a token.
    const fetched = await ctx.fetchUrl(publicUrl);
    expect(fetched.status).toBe(200);
    expect(fetched.body.equals(tinyPng(30))).toBe(true);
    expect(fetched.headers.get('content-type')).toBe('image/png');
    expect(fetched.headers.get('cache-control')).toBe('public, no-cache');
    expect(fetched.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = fetched.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    const revalidated = await fetchPublic(publicUrl, { 'if-none-match': etag });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    expect((await fetchPublic(publicUrl, { 'if-none-match': '"other"' })).statusCode).toBe(200);
    // A bearer header, even a bad one, changes nothing; HEAD answers the headers alone.
    expect(
      (await ctx.request({ method: 'GET', url: new URL(publicUrl).pathname, token: 'garbage' })).statusCode,
    ).toBe(200);
    const head = await ctx.request({ method: 'HEAD', url: new URL(publicUrl).pathname });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('image/png');
    expect(head.body).toBe('');

    // Public again: the same URL, no new event.
    const repeat = await call('PUT', coversUrl(tour.id, `/${cover.id}/public`), team.owner.token, {
      isPublic: true,
    });
    expect(repeat.json().publicUrl).toBe(publicUrl);

    // Guessed tokens and the cover beside it are not served.
    const token = new URL(publicUrl).pathname.split('/').at(-1)!;
    const flipped = `${token.slice(0, -1)}${token.at(-1) === 'A' ? 'B' : 'A'}`;
    for (const guess of [flipped, 'x', 'A'.repeat(43), `${token}x`, 'A'.repeat(200), String(other.id)]) {
      const res = await ctx.request({ method: 'GET', url: `/api/v1/public/tour-covers/${guess}` });
      expect(res.statusCode, guess.slice(0, 50)).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    const otherPublic = await call('PUT', coversUrl(tour.id, `/${other.id}/public`), team.owner.token, {
      isPublic: true,
    });
    const otherUrl = otherPublic.json().publicUrl;
    expect(otherUrl).not.toBe(publicUrl);
    expect((await fetchPublic(otherUrl)).rawPayload.equals(tinyPng(31))).toBe(true);

    // Private: 404 at once, for everyone; public once more: a new URL, the old one stays dead.
    const hidden = await call('PUT', coversUrl(tour.id, `/${cover.id}/public`), team.owner.token, {
      isPublic: false,
    });
    expect(hidden.json()).toMatchObject({ isPublic: false, publicUrl: null });
    expect((await fetchPublic(publicUrl)).statusCode).toBe(404);
    expect((await fetchPublic(publicUrl, { 'if-none-match': etag })).statusCode).toBe(404);
    expect((await getTour(tour.id)).cover).toMatchObject({ isPublic: false, publicUrl: null });
    const renewed = (
      await call('PUT', coversUrl(tour.id, `/${cover.id}/public`), team.owner.token, { isPublic: true })
    ).json().publicUrl;
    expect(renewed).not.toBe(publicUrl);
    expect((await fetchPublic(publicUrl)).statusCode).toBe(404);
    expect((await fetchPublic(renewed)).statusCode).toBe(200);

    // Deleted: 404 at once.
    expect((await call('DELETE', coversUrl(tour.id, `/${cover.id}`), team.owner.token)).statusCode).toBe(204);
    expect((await fetchPublic(renewed)).statusCode).toBe(404);
    expect((await fetchPublic(otherUrl)).statusCode).toBe(200);
    // The whole tour deleted: its other public cover goes too.
    expect((await call('DELETE', `/api/v1/tours/${tour.id}`, team.owner.token)).statusCode).toBe(204);
    expect((await fetchPublic(otherUrl)).statusCode).toBe(404);

    const body = await call('PUT', coversUrl(tour.id, `/${other.id}/public`), team.owner.token, {
      isPublic: true,
    });
    expect(body.statusCode).toBe(404);
    expect((await actionsOf(tour.id)).filter((a) => a.startsWith('tour.cover_made'))).toEqual([
      'tour.cover_made_public',
      'tour.cover_made_public',
      'tour.cover_made_private',
      'tour.cover_made_public',
    ]);
    await expectNoOrphans(ctx);
  });

  it('deletes covers with their bytes; the current one leaves the tour without a cover', async () => {
    const tour = await newTour();
    const first = await upload(tour.id, 1);
    const second = await upload(tour.id, 2);
    const before = (await getTour(tour.id)).updatedAt;
    const removed = await call('DELETE', coversUrl(tour.id, `/${first.id}`), team.owner.token);
    expect(removed.statusCode).toBe(204);
    expect((await ctx.fetchUrl(first.url)).status).toBe(404);
    const cleared = await getTour(tour.id);
    expect(cleared.cover).toBeNull();
    expect(cleared.updatedAt >= before).toBe(true);
    const third = await upload(tour.id, 3);
    expect(third.isCurrent).toBe(true);
    expect((await call('DELETE', coversUrl(tour.id, `/${second.id}`), team.owner.token)).statusCode).toBe(
      204,
    );
    expect((await getTour(tour.id)).cover.id).toBe(third.id);
    expect((await call('DELETE', coversUrl(tour.id, `/${second.id}`), team.owner.token)).statusCode).toBe(
      404,
    );

    const png = tinyPng(4);
    const pending = (await call('POST', coversUrl(tour.id), team.owner.token, { fileName: 'p.png' })).json();
    expect((await putBytes(ctx, pending, png)).status).toBe(200);
    expect((await call('DELETE', coversUrl(tour.id, `/${pending.id}`), team.owner.token)).statusCode).toBe(
      204,
    );
    expect(await ctx.listKeys(pending.fileKey)).toEqual([]);
    expect(
      (await call('POST', coversUrl(tour.id, `/${pending.id}/added`), team.owner.token)).statusCode,
    ).toBe(404);

    // Deleting the tour takes its covers and open uploads with it.
    const open = (await call('POST', coversUrl(tour.id), team.owner.token, { fileName: 'o.png' })).json();
    expect((await putBytes(ctx, open, png)).status).toBe(200);
    expect((await call('DELETE', `/api/v1/tours/${tour.id}`, team.owner.token)).statusCode).toBe(204);
    expect((await ctx.fetchUrl(third.url)).status).toBe(404);
    expect(await ctx.listKeys(open.fileKey)).toEqual([]);
    expect((await call('GET', coversUrl(tour.id), team.owner.token)).statusCode).toBe(404);
    await expectNoOrphans(ctx);
  });

  it('refuses what is not an image, malformed bodies and what is over the quota', async () => {
    const tour = await newTour();
    const cases: Refusal[] = [
      [{ fileName: 'cover.pdf' }, 400, 'unsupported_file_type'],
      [{ fileName: 'cover', mediaType: 'application/pdf' }, 400, 'unsupported_file_type'],
      [{ fileName: 'cover.png', mediaType: 'audio' }, 400, 'unsupported_file_type'],
      [{ fileName: 'cover.png', mediaType: 'not a type' }, 400, 'validation_failed', '/body/mediaType'],
      [{}, 400, 'validation_failed', '/body/fileName'],
      [{ fileName: '   ' }, 400, 'validation_failed', '/body/fileName'],
      [{ fileName: 'c.png', fileSize: -1 }, 400, 'validation_failed', '/body/fileSize'],
      [{ fileName: 'c.png', isPublic: true }, 400, 'validation_failed', '/body/isPublic'],
      [{ fileName: 'c.png', fileSize: 21 * 1024 * 1024 }, 413, 'payload_too_large'],
    ];
    await expectRefusals(ctx, team.owner.token, coversUrl(tour.id), cases);

    // Bytes that are not the announced image are refused at registration.
    const fake = await uploadTrackFile(
      ctx,
      team.owner.token,
      coversUrl(tour.id),
      { fileName: 'f.png' },
      Buffer.from('not a png'),
      {
        confirm: false,
      },
    );
    const refused = await call('POST', coversUrl(tour.id, `/${fake.ticket.id}/added`), team.owner.token);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('unsupported_file_type');

    const cover = await upload(tour.id, 5);
    for (const payload of [{}, { isPublic: 'yes' }, { isPublic: true, extra: 1 }]) {
      const res = await call('PUT', coversUrl(tour.id, `/${cover.id}/public`), team.owner.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await call('GET', coversUrl(tour.id, '?limit=0'), team.owner.token)).statusCode).toBe(400);
    expect((await call('DELETE', coversUrl(tour.id, '/abc'), team.owner.token)).statusCode).toBe(400);

    const small = await ctx.newTeam(team.owner);
    await ctx.setQuota(small, 50);
    const smallTour = await newTour(small);
    const over = await call('POST', coversUrl(smallTour.id), team.owner.token, {
      fileName: 'big.png',
      fileSize: 51,
    });
    expect(over.statusCode).toBe(413);
    expect(over.json().code).toBe('quota_exceeded');
  });

  it("never shows or changes another team's covers (404)", async () => {
    const tour = await newTour();
    const cover = await upload(tour.id);
    const pending = (await call('POST', coversUrl(tour.id), team.owner.token, { fileName: 'p.png' })).json();
    const outsider = await ctx.newUser();
    for (const [method, suffix, payload] of [
      ['GET', '', undefined],
      ['POST', '', { fileName: 'x.png' }],
      ['POST', `/${pending.id}/added`, undefined],
      ['PUT', `/${cover.id}/current`, undefined],
      ['PUT', `/${cover.id}/public`, { isPublic: true }],
      ['DELETE', `/${cover.id}`, undefined],
    ] as const) {
      const res = await call(method, coversUrl(tour.id, suffix), outsider.token, payload);
      expect(res.statusCode, `${method} ${suffix}`).toBe(404);
    }
    expect((await getTour(tour.id)).cover).toMatchObject({ id: cover.id, isPublic: false });
  });
});
