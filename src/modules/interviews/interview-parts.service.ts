import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import { isKeyInstant, isKeyInt, isPositionCursor } from '../../shared/cursor-values.ts';
import { decodeCursor, decodeIdCursor, encodeCursor, toPage } from '../../shared/pagination.ts';
import { requireTeam } from '../../shared/tenancy.ts';
import { requireInterview } from './interview-access.ts';
import { questionView } from './interview-view.ts';
import { type BankKey, listBank } from './question-bank.repository.ts';
import { listQuestions } from './questions.repository.ts';

type PageInput = { limit: number; cursor?: string | undefined };

const isBankKey = (value: unknown): value is BankKey =>
  Array.isArray(value) &&
  value.length === 3 &&
  isKeyInt(value[0]) &&
  isKeyInstant(value[1]) &&
  isKeyInt(value[2]);

/** A page of a list the interview row holds whole; the cursor is the index the next page starts at. */
function arrayPage<T>(all: T[], { limit, cursor }: PageInput) {
  const start = decodeIdCursor(cursor) ?? 0;
  const end = start + limit;
  return { items: all.slice(start, end), nextCursor: end < all.length ? encodeCursor(end) : null };
}

/** The parts of one interview (questions, articles, videos), and the team's question bank. */
export class InterviewPartsService {
  constructor(private readonly db: Db) {}

  async questions(principal: Principal, id: number, page: PageInput) {
    await requireInterview(this.db, principal, id);
    const after = decodeCursor(page.cursor, isPositionCursor);
    const rows = await listQuestions(this.db, id, after, page.limit + 1);
    const { items, nextCursor } = toPage(rows, page.limit, (last) => [last.position, last.id]);
    return { items: items.map(questionView), nextCursor };
  }

  async articles(principal: Principal, id: number, page: PageInput) {
    return arrayPage((await requireInterview(this.db, principal, id)).articles, page);
  }

  async videos(principal: Principal, id: number, page: PageInput) {
    return arrayPage((await requireInterview(this.db, principal, id)).videos, page);
  }

  /**
   * The team's question bank: one entry per question however often the team's interviews (drafts too) ask
   * it, questions that differ only in case or spacing being one; most used first.
   */
  async bank(principal: Principal, teamId: number, page: PageInput) {
    await requireTeam(this.db, principal, teamId);
    const after = decodeCursor(page.cursor, isBankKey);
    const rows = await listBank(this.db, teamId, after, page.limit + 1);
    const { items, nextCursor } = toPage(
      rows,
      page.limit,
      (last): BankKey => [last.uses, last.lastUsedAt.toISOString(), last.firstId],
    );
    return { items: items.map(({ firstId: _, ...entry }) => entry), nextCursor };
  }
}
