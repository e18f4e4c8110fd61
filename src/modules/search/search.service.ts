import type { Db } from '../../db/client.ts';
import { confirmCaller, type Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { isKeyInt, isKeyNumber } from '../../shared/cursor-values.ts';
import { errors } from '../../shared/errors.ts';
import { decodeCursor, toPage } from '../../shared/pagination.ts';
import { requireTeam } from '../../shared/tenancy.ts';
import { prefixQuery, searchTerms, snippetOf } from '../tracks/search/search-text.ts';
import { searchEverything, type UnifiedHit } from './search.repository.ts';
import { KEY_KINDS, linkOf, SEARCH_KINDS, type SearchKind, UUID_KINDS } from './search-kinds.ts';

/** Where a page ends: its last hit's score, kind and id (hits come by score, then kind and id). */
type SearchKey = [score: number, kind: SearchKind, id: number | string];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const isKind = (value: unknown): value is SearchKind => SEARCH_KINDS.includes(value as SearchKind);

function isSearchKey(value: unknown): value is SearchKey {
  if (!Array.isArray(value) || value.length !== 3) return false;
  const [score, kind, id] = value as unknown[];
  if (!isKeyNumber(score) || !isKind(kind)) return false;
  return UUID_KINDS.includes(kind) ? typeof id === 'string' && UUID.test(id) : isKeyInt(id);
}

export type SearchInput = {
  q: string;
  teamId?: number | undefined;
  kinds?: string | undefined;
  limit: number;
  cursor?: string | undefined;
};

/** The one search: every kind the caller may read, ranked together. */
export class SearchService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** The kinds a request searches: those it names (a key: only kinds keys read), else all the caller may. */
  private kindsOf(principal: Principal, named: string | undefined): readonly SearchKind[] {
    const readable = principal.type === 'key' ? KEY_KINDS : SEARCH_KINDS;
    if (named === undefined) return readable;
    const kinds = [...new Set(named.split(','))].filter(isKind);
    if (kinds.some((kind) => !readable.includes(kind))) throw errors.sessionRequired();
    return kinds;
  }

  async search(principal: Principal, input: SearchInput) {
    const terms = searchTerms(input.q);
    if (terms.length === 0)
      throw errors.validation([{ path: '/query/q', message: 'must contain at least one letter or digit' }]);
    const kinds = this.kindsOf(principal, input.kinds);
    // A key reads its own team only: naming another is 404, as for any team the caller is not in.
    if (principal.type === 'key' && input.teamId !== undefined)
      await requireTeam(this.db, principal, input.teamId);
    const after = decodeCursor(input.cursor, isSearchKey);
    const rows = await searchEverything(this.db, principal.type, {
      userId: principal.type === 'session' ? principal.userId : null,
      sessionId: principal.type === 'session' ? principal.sessionId : null,
      keyId: principal.type === 'key' ? principal.keyId : null,
      teamId: principal.type === 'key' ? principal.teamId : (input.teamId ?? null),
      allTerms: prefixQuery(terms),
      anyTerm: prefixQuery(terms, '|'),
      kinds: `{${kinds.join(',')}}`,
      limit: input.limit + 1,
      now: principal.type === 'session' ? (principal.verifiedAt ?? this.clock.now()) : this.clock.now(),
      afterScore: after?.[0] ?? null,
      afterKind: after?.[1] ?? null,
      afterNumId: after && !UUID_KINDS.includes(after[1]) ? (after[2] as number) : null,
      afterUuidId: after && UUID_KINDS.includes(after[1]) ? (after[2] as string) : null,
    });
    if (rows[0]) confirmCaller(principal, rows[0].callerActive);
    // No hit: a team the caller is not in is told apart from one without matches (and the caller confirmed).
    else if (input.teamId !== undefined) await requireTeam(this.db, principal, input.teamId);
    const page = toPage(rows, input.limit, (last): SearchKey => [last.score, last.kind, idOf(last)]);
    return { items: page.items.map((hit) => view(hit, terms)), nextCursor: page.nextCursor };
  }
}

const idOf = (hit: UnifiedHit): number | string => (hit.uuidId ?? hit.numId)!;

function view(hit: UnifiedHit, terms: string[]) {
  const id = idOf(hit);
  return {
    kind: hit.kind,
    id,
    teamId: hit.teamId,
    title: hit.title,
    ...snippetOf(hit.content ?? hit.title, terms),
    link: { href: linkOf(hit.kind, id, hit) },
    score: hit.score,
    at: hit.at,
  };
}
