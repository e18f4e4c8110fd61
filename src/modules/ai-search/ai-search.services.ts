import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../shared/clock.ts';
import { AiSearchService } from './ai-search.service.ts';
import { LlmProvider } from './llm-provider.ts';

/** The AI search service, reading with a language model when one is configured. */
export function createAiSearchService(db: Db, clock: Clock, llm: Config['aiSearchLlm']) {
  return new AiSearchService(db, clock, llm ? new LlmProvider(llm) : undefined);
}
