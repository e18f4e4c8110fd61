import type { Db } from '../../../db/client.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { isKeyInstant, isKeyInt } from '../../../shared/cursor-values.ts';
import { decodeCursor, toPage } from '../../../shared/pagination.ts';
import { requireContact } from '../contact-access.ts';
import { type SourcedItem, TIMELINE_SOURCES, type TimelineKey } from './timeline-sources.ts';

const SOURCE_NAMES = new Set(TIMELINE_SOURCES.map((s) => s.name));

const isTimelineKey = (value: unknown): value is TimelineKey =>
  Array.isArray(value) &&
  value.length === 3 &&
  isKeyInstant(value[0]) &&
  typeof value[1] === 'string' &&
  SOURCE_NAMES.has(value[1]) &&
  isKeyInt(value[2]);

/** Newest first by `(at, source, id)`: one order across every source, so pages never skip or repeat. */
function newestFirst(a: SourcedItem, b: SourcedItem): number {
  return (
    b.at.getTime() - a.at.getTime() ||
    (a.source === b.source ? 0 : a.source < b.source ? 1 : -1) ||
    b.id - a.id
  );
}

const keyOf = (s: SourcedItem): TimelineKey => [s.at.toISOString(), s.source, s.id];

/** What happened with a contact, newest first, from every timeline source. */
export class ContactTimelineService {
  constructor(private readonly db: Db) {}

  /**
   * A keyset page: every source reads up to `limit + 1` items after the cursor, the merge keeps the first
   * `limit + 1`, so the page and whether another follows are exact.
   */
  async page(principal: Principal, contactId: number, input: { limit: number; cursor?: string | undefined }) {
    const contact = await requireContact(this.db, principal, contactId);
    const after = decodeCursor(input.cursor, isTimelineKey);
    const perSource = await Promise.all(
      TIMELINE_SOURCES.map((source) => source.read(this.db, contact, after, input.limit + 1)),
    );
    const merged = perSource
      .flat()
      .sort(newestFirst)
      .slice(0, input.limit + 1);
    const page = toPage(merged, input.limit, keyOf);
    return { items: page.items.map((s) => s.item), nextCursor: page.nextCursor };
  }
}
