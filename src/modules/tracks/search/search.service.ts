import type { Db } from '../../../db/client.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { isKeyInt, isKeyNumber } from '../../../shared/cursor-values.ts';
import { errors } from '../../../shared/errors.ts';
import { growingLru } from '../../../shared/growing-lru.ts';
import { decodeCursor, toPage } from '../../../shared/pagination.ts';
import { requireTeam } from '../../../shared/tenancy.ts';
import { isLargeTeam, type SearchKey, searchTracks } from './search.repository.ts';
import { prefixQuery, searchTerms, snippetOf } from './search-text.ts';

const isSearchKey = (value: unknown): value is SearchKey =>
  Array.isArray(value) && value.length === 2 && isKeyNumber(value[0]) && isKeyInt(value[1]);

/** Full-text search over a team's tracks and what hangs off them (comments, to-dos, links). */
export class TrackSearchService {
  /**
   * Which teams are large, as of the last minute: it only picks the faster plan, so a team that just crossed
   * the line is still searched correctly, and the count leaves the request path.
   */
  private readonly largeTeams = growingLru<number, boolean>({ maxEntries: 10_000, ttl: 60_000 });

  constructor(private readonly db: Db) {}

  private async isLarge(teamId: number): Promise<boolean> {
    const known = this.largeTeams.get(teamId);
    if (known !== undefined) return known;
    const large = await isLargeTeam(this.db, teamId);
    this.largeTeams.set(teamId, large);
    return large;
  }

  async deep(
    principal: Principal,
    input: { q: string; teamId: number; limit: number; cursor?: string | undefined },
  ) {
    await requireTeam(this.db, principal, input.teamId);
    const terms = searchTerms(input.q);
    if (terms.length === 0)
      throw errors.validation([{ path: '/query/q', message: 'must contain at least one letter or digit' }]);
    const query = { allTerms: prefixQuery(terms), anyTerm: prefixQuery(terms, '|') };
    const after = decodeCursor(input.cursor, isSearchKey);
    const found = await searchTracks(this.db, input.teamId, query, input.limit + 1, {
      largeTeam: await this.isLarge(input.teamId),
      after,
    });
    const page = toPage(found, input.limit, (last): SearchKey => [last.rank, last.trackId]);
    return {
      items: page.items.map((hit) => ({
        track: {
          id: hit.trackId,
          teamId: hit.teamId,
          title: hit.title,
          artist: hit.artist,
          statusId: hit.statusId,
        },
        field: hit.field,
        rank: hit.rank,
        ...snippetOf(hit.content, terms),
      })),
      nextCursor: page.nextCursor,
    };
  }
}
