import { createHash } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { decodeIdCursor, toPage } from '../../shared/pagination.ts';
import { listPublished } from './testimonials.repository.ts';

/** How long shared caches and browsers may keep a page before asking again. */
export const TESTIMONIALS_MAX_AGE_SECONDS = 300;

/** The public testimonials: published ones only, paged newest first, each page with a content ETag. */
export class TestimonialsService {
  constructor(private readonly db: Db) {}

  async page(input: { limit: number; cursor?: string | undefined }) {
    const before = decodeIdCursor(input.cursor);
    const rows = await listPublished(this.db, input.limit + 1, before);
    const page = toPage(rows, input.limit, (last) => last.id);
    const etag = `"${createHash('sha256').update(JSON.stringify(page)).digest('base64url').slice(0, 27)}"`;
    return { page, etag };
  }
}
