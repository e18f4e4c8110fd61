import type { Db } from '../../../db/client.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { errors } from '../../../shared/errors.ts';
import { requireTeam } from '../../../shared/tenancy.ts';
import { searchTracks } from './search.repository.ts';
import { prefixQuery, searchTerms, snippetOf } from './search-text.ts';

/** Full-text search over a team's tracks and what hangs off them (comments, to-dos, links). */
export class TrackSearchService {
  constructor(private readonly db: Db) {}

  async deep(principal: Principal, input: { q: string; teamId: number; limit: number }) {
    await requireTeam(this.db, principal, input.teamId);
    const terms = searchTerms(input.q);
    if (terms.length === 0)
      throw errors.validation([{ path: '/query/q', message: 'must contain at least one letter or digit' }]);
    const query = { allTerms: prefixQuery(terms), anyTerm: prefixQuery(terms, '|') };
    const hits = await searchTracks(this.db, input.teamId, query, input.limit);
    return {
      items: hits.map((hit) => ({
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
      nextCursor: null,
    };
  }
}
