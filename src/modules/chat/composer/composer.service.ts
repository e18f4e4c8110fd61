import type { Db } from '../../../db/client.ts';
import type { ChatMentionKind } from '../../../db/schema/index.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { isKeyText } from '../../../shared/cursor-values.ts';
import { errors } from '../../../shared/errors.ts';
import { decodeCursor, toPage } from '../../../shared/pagination.ts';
import { requireTeam, sessionUserId } from '../../../shared/tenancy.ts';
import { isUuid } from '../ids.ts';
import { findTarget, type MentionCard, searchTargets, teamPeople } from './composer.repository.ts';

const INT_ID = /^[1-9][0-9]{0,9}$/;
const INT4_MAX = 2_147_483_647;

const isPeopleCursor = (value: unknown): value is [string, string] =>
  Array.isArray(value) && value.length === 2 && isKeyText(value[0]) && isUuid(value[1]);

/** Takes one from each list in turn until `limit`: every kind gets a place near the top. */
function interleave<T>(lists: T[][], limit: number): T[] {
  const out: T[] = [];
  for (let i = 0; out.length < limit && lists.some((list) => i < list.length); i++) {
    for (const list of lists) if (i < list.length && out.length < limit) out.push(list[i]!);
  }
  return out;
}

/** What the message composer asks: targets to mention, people to write to, a card for one mention. */
export class ChatComposerService {
  constructor(private readonly db: Db) {}

  async mentionSearch(
    principal: Principal,
    query: { teamId: number; q?: string | undefined; limit?: number },
  ) {
    await requireTeam(this.db, principal, query.teamId);
    const limit = query.limit ?? 50;
    const lists = await searchTargets(this.db, query.teamId, query.q?.trim(), limit);
    return { items: interleave<MentionCard>(lists, limit), nextCursor: null };
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
