import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { isKeyInstant, isKeyInt } from '../../shared/cursor-values.ts';
import { errors } from '../../shared/errors.ts';
import { decodeCursor, toPage } from '../../shared/pagination.ts';
import { requireTeam } from '../../shared/tenancy.ts';
import { type After, findAlbums, findTracks, teamStatuses } from './ai-search.repository.ts';
import type { Interpretation } from './interpretation.ts';
import { SEARCH_KINDS, type SearchKind, type Vocabulary } from './kinds.ts';
import type { LlmFailure, LlmProvider } from './llm-provider.ts';
import { type ParseContext, parseQuery } from './parser.ts';

export type SearchInput = {
  query: string;
  vocabulary: Vocabulary;
  teamId?: number | undefined;
  /** Results per page, with teamId; DEFAULT_LIMIT when left out. */
  limit?: number | undefined;
  cursor?: string | undefined;
};

const DEFAULT_LIMIT = 50;

export type SearchAnswer = Interpretation & { provider: 'parser' | 'llm'; fallback?: LlmFailure };

const isAfter = (value: unknown): value is After =>
  Array.isArray(value) && value.length === 2 && isKeyInstant(value[0]) && isKeyInt(value[1]) && value[1] > 0;

/** Reads search sentences into filters (language model when configured, parser otherwise) and runs them. */
export class AiSearchService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly llm: LlmProvider | undefined,
  ) {}

  async search(principal: Principal, kind: SearchKind, input: SearchInput, log: FastifyBaseLogger) {
    const teamId = input.teamId;
    if (teamId !== undefined) await requireTeam(this.db, principal, teamId);
    const after = this.afterOf(input);
    const limit = input.limit ?? DEFAULT_LIMIT;
    const statuses =
      teamId === undefined ? SEARCH_KINDS[kind].defaultStatuses : await teamStatuses(this.db, teamId, kind);
    const context: ParseContext = {
      kind,
      query: input.query,
      vocabulary: input.vocabulary,
      statuses,
      today: this.clock.now(),
    };
    const answer = await this.interpret(context, log);
    if (teamId === undefined) return answer;
    const page = { limit, after };
    const cursorOf = (last: { updatedAt: Date; id: number }): After => [
      last.updatedAt.toISOString(),
      last.id,
    ];
    const results =
      kind === 'tracks'
        ? toPage(await findTracks(this.db, teamId, answer.filters, page), limit, cursorOf)
        : toPage(await findAlbums(this.db, teamId, answer.filters, page), limit, cursorOf);
    return { ...answer, results };
  }

  /** Where the page starts; paging fields (limit, cursor) only make sense with teamId. */
  private afterOf(input: SearchInput): After | undefined {
    if (input.teamId === undefined && input.limit !== undefined)
      throw errors.validation([{ path: '/body/limit', message: 'is only accepted with teamId' }]);
    if (input.cursor === undefined) return undefined;
    const invalid = (message: string) => errors.validation([{ path: '/body/cursor', message }]);
    if (input.teamId === undefined) throw invalid('is only accepted with teamId');
    try {
      return decodeCursor(input.cursor, isAfter);
    } catch {
      throw invalid('is not a cursor this endpoint issued');
    }
  }

  private async interpret(context: ParseContext, log: FastifyBaseLogger): Promise<SearchAnswer> {
    if (!this.llm) return { provider: 'parser', ...parseQuery(context) };
    const outcome = await this.llm.interpret(context);
    if (outcome.ok) return { provider: 'llm', ...outcome.interpretation };
    log.warn(
      { reason: outcome.reason, detail: outcome.detail },
      'AI search: the language model answer was not used',
    );
    return { provider: 'parser', fallback: outcome.reason, ...parseQuery(context) };
  }
}
