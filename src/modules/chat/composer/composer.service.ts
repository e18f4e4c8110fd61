import type { Db } from '../../../db/client.ts';
import type { ChatMentionKind } from '../../../db/schema/index.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { isKeyInt, isKeyText } from '../../../shared/cursor-values.ts';
import { errors } from '../../../shared/errors.ts';
import { decodeCursor, encodeCursor, toPage } from '../../../shared/pagination.ts';
import { requireTeam, sessionUserId } from '../../../shared/tenancy.ts';
import { isUuid } from '../ids.ts';
import {
  findTarget,
  type KeyedCard,
  type MentionCard,
  searchTargets,
  type TargetKey,
  teamPeople,
} from './composer.repository.ts';

const INT_ID = /^[1-9][0-9]{0,9}$/;
const INT4_MAX = 2_147_483_647;

const isPeopleCursor = (value: unknown): value is [string, string] =>
  Array.isArray(value) && value.length === 2 && isKeyText(value[0]) && isUuid(value[1]);

/** Per kind (people, tracks, albums, contacts), where a mention search resumes: null before its first. */
type TargetKeys = (TargetKey | null)[];

const isTargetKeys = (value: unknown): value is TargetKeys =>
  Array.isArray(value) &&
  value.length === 4 &&
  value.every(
    (key, i) =>
      key === null ||
      (Array.isArray(key) &&
        key.length === 2 &&
        isKeyText(key[0]) &&
        (i === 0 ? isUuid(key[1]) : isKeyInt(key[1]) && (key[1] as number) > 0)),
  );

/**
 * Takes one from each list in turn until `limit`: every kind gets a place near the top. Answers the items and
 * how many of each list were taken.
 */
function interleave<T>(lists: T[][], limit: number): { items: T[]; taken: number[] } {
  const items: T[] = [];
  const taken = lists.map(() => 0);
  for (let i = 0; items.length < limit && lists.some((list) => i < list.length); i++) {
    lists.forEach((list, k) => {
      if (i < list.length && items.length < limit) {
        items.push(list[i]!);
        taken[k]! += 1;
      }
    });
  }
  return { items, taken };
}

/** What the message composer asks: targets to mention, people to write to, a card for one mention. */
export class ChatComposerService {
  constructor(private readonly db: Db) {}

  async mentionSearch(
    principal: Principal,
    query: { teamId: number; q?: string | undefined; limit?: number; cursor?: string | undefined },
  ) {
    await requireTeam(this.db, principal, query.teamId);
    const limit = query.limit ?? 50;
    const from = decodeCursor(query.cursor, isTargetKeys) ?? [null, null, null, null];
    // Each kind reads one more than a page can take of it, so whether any is left is exact.
    const lists = await searchTargets(this.db, query.teamId, query.q?.trim(), limit + 1, from);
    const { items, taken } = interleave<KeyedCard>(lists, limit);
    const left = lists.some((list, k) => list.length > taken[k]!);
    const next = lists.map((list, k) => (taken[k]! > 0 ? list[taken[k]! - 1]!.key : from[k]!));
    return {
      items: items.map(({ key: _, ...card }): MentionCard => card),
      nextCursor: left ? encodeCursor(next) : null,
    };
  }

  /** The members of the team the caller can write to (everyone but themselves), alphabetically. */
  async people(principal: Principal, query: { teamId: number; limit: number; cursor?: string | undefined }) {
    const access = await requireTeam(this.db, principal, query.teamId);
    const userId = sessionUserId(principal);
    const after = decodeCursor(query.cursor, isPeopleCursor);
    const rows = await teamPeople(this.db, access.teamId, userId, after, query.limit + 1);
    const page = toPage(rows, query.limit, (last) => [last.nameKey, last.id]);
    return { items: page.items.map(({ nameKey: _, ...person }) => person), nextCursor: page.nextCursor };
  }

  /** The card of one mention target of the team; 404 for anything the team does not have. */
  async mentionContext(principal: Principal, query: { teamId: number; kind: ChatMentionKind; id: string }) {
    await requireTeam(this.db, principal, query.teamId);
    const id = query.kind === 'user' ? query.id.toLowerCase() : query.id;
    const valid = query.kind === 'user' ? isUuid(id) : INT_ID.test(id) && Number(id) <= INT4_MAX;
    if (!valid)
      throw errors.validation([
        {
          path: '/query/id',
          message: query.kind === 'user' ? 'must be a UUID' : 'must be a positive integer id',
        },
      ]);
    const card = await findTarget(this.db, query.teamId, query.kind, id);
    if (!card) throw errors.notFound(query.kind);
    return card;
  }
}
