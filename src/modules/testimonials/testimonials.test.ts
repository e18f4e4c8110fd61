import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';
import { testimonialCommand } from './testimonials.cli.ts';

const ctx = useTestContext();

class Usage extends Error {}

/** Runs `tmw testimonial ...` against the test database, as the command line does. */
const tmw = (args: string[], options: Record<string, unknown> = {}) =>
  testimonialCommand(ctx.database.db, ctx.clock, args, options, (m) => new Usage(m));

const list = (query = '', headers: Record<string, string> = {}) =>
  ctx.request({ method: 'GET', url: `/api/v1/testimonials${query}`, headers });

describe('GET /api/v1/testimonials', () => {
  it('answers anyone, without a token, an empty page at first', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ items: [], nextCursor: null });
    // A bearer header, even a bad one, changes nothing on an anonymous route.
    expect(
      (await ctx.request({ method: 'GET', url: '/api/v1/testimonials/', token: 'garbage' })).statusCode,
    ).toBe(200);
  });

  it('shows published testimonials newest first, in keyset pages', async () => {
    const first = Number(
      await tmw(['add'], { quote: 'Changed how we work.', author: 'Maya', role: 'Producer' }),
    );
    const hidden = Number(await tmw(['add'], { quote: 'Draft quote', author: 'Ben', unpublished: true }));
    const second = Number(await tmw(['add'], { quote: '  Fast and calm.  ', author: 'Lou' }));
    expect(first).toBeGreaterThan(0);
    expect(hidden).toBeGreaterThan(first);

    const whole = (await list()).json();
    expect(whole).toEqual({
      items: [
        { id: second, quote: 'Fast and calm.', author: 'Lou', role: null },
        { id: first, quote: 'Changed how we work.', author: 'Maya', role: 'Producer' },
      ],
      nextCursor: null,
    });

    const page1 = (await list('?limit=1')).json();
    expect(page1.items.map((t: { id: number }) => t.id)).toEqual([second]);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const page2 = (await list(`?limit=1&cursor=${page1.nextCursor}`)).json();
    expect(page2).toEqual({ items: [whole.items[1]], nextCursor: null });

    await tmw(['publish', String(hidden)]);
    expect((await list()).json().items.map((t: { id: number }) => t.id)).toEqual([second, hidden, first]);
    await tmw(['unpublish', String(hidden)]);
    expect((await list()).json().items).toHaveLength(2);
  });

  it('is cacheable: an ETag that follows the content, and 304 for If-None-Match', async () => {
    const res = await list();
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await list('', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await list('', { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);
    expect((await list('', { 'if-none-match': '"other"' })).statusCode).toBe(200);

    const id = await tmw(['add'], { quote: 'New one', author: 'Kim' });
    const changed = await list('', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    await tmw(['remove', id]);
    expect((await list()).headers.etag).toBe(etag);
  });

  it('refuses bad paging input with 400', async () => {
    for (const query of ['?limit=0', '?limit=201', '?limit=abc', '?cursor=nope', '?cursor=%00']) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
  });

  it('is documented as anonymous', async () => {
    const route = ctx.app.routeTable.find((r) => r.operationId === 'testimonials.list');
    expect(route).toMatchObject({ method: 'GET', path: '/api/v1/testimonials', auth: { kind: 'anonymous' } });
    const doc = (await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(doc.paths['/api/v1/testimonials'].get.security).toEqual([]);
  });
});

describe('tmw testimonial', () => {
  it('lists every testimonial with its state, removes one, and refuses wrong use', async () => {
    const id = await tmw(['add'], {
      quote: 'Line one\nline two',
      author: 'Ana',
      role: 'Engineer',
      unpublished: true,
    });
    const listing = await tmw(['list']);
    expect(listing.split('\n')[0]).toBe(`${id}\tunpublished\tAna (Engineer)\tLine one line two`);

    expect(await tmw(['remove', id])).toBe(`testimonial ${id} removed`);
    expect(await tmw(['list'])).not.toContain('Ana');

    const refused: [string[], Record<string, unknown>, RegExp][] = [
      [['add'], { quote: 'No author' }, /--quote and --author are required/],
      [['add'], { quote: '   ', author: 'A' }, /required/],
      [['add'], { quote: 'x'.repeat(2001), author: 'A' }, /at most 2000/],
      [['add'], { quote: 'nul \u0000', author: 'A' }, /cannot be stored/],
      [['remove'], {}, /positive integer/],
      [['remove', '1.5'], {}, /positive integer/],
      [['remove', '99999999999'], {}, /positive integer/],
      [['remove', id], {}, new RegExp(`no testimonial ${id}`)],
      [['publish', '2147483647'], {}, /no testimonial/],
      [['frobnicate'], {}, /unknown testimonial command/],
      [[], {}, /needs a command/],
    ];
    for (const [args, options, message] of refused)
      await expect(tmw(args, options), args.join(' ')).rejects.toThrow(message);
    await expect(tmw(['add'], { author: 'A' })).rejects.toBeInstanceOf(Usage);
  });
});
