import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import { isKeyInstant, isKeyInt } from '../../shared/cursor-values.ts';
import { errors } from '../../shared/errors.ts';
import { decodeCursor, toPage } from '../../shared/pagination.ts';
import { requireInterviewBySlug } from './interview-access.ts';
import { interviewView, publicView, withQuestions } from './interview-view.ts';
import * as repo from './interviews.repository.ts';
import { questionsOf } from './questions.repository.ts';

const isPublishedKey = (value: unknown): value is repo.PublishedKey =>
  Array.isArray(value) && value.length === 2 && isKeyInstant(value[0]) && isKeyInt(value[1]);

/**
 * Interviews found by slugs: `{a}` is the team's slug, `{b}` the interview's. Members read their team's
 * drafts too; the public paths show published interviews only, to any token.
 */
export class PublishedInterviewsService {
  constructor(private readonly db: Db) {}

  async bySlug(principal: Principal, teamSlug: string, slug: string) {
    const row = await requireInterviewBySlug(this.db, principal, teamSlug, slug);
    return interviewView(row, await questionsOf(this.db, [row.id]));
  }

  /** A page of the team's published interviews, most recently published first. */
  async list(teamSlug: string, page: { limit: number; cursor?: string | undefined }) {
    const team = await this.team(teamSlug);
    const after = decodeCursor(page.cursor, isPublishedKey);
    const rows = await repo.listPublished(this.db, team.id, after, page.limit + 1);
    const { items, nextCursor } = toPage(
      rows,
      page.limit,
      (last): repo.PublishedKey => [last.publishedAt!.toISOString(), last.id],
    );
    const questions = await questionsOf(
      this.db,
      items.map((row) => row.id),
    );
    const view = (row: repo.InterviewRow, qs: typeof questions) => publicView(row, team.slug, qs);
    return { items: withQuestions(items, questions, view), nextCursor };
  }

  async get(teamSlug: string, slug: string) {
    const team = await this.team(teamSlug);
    const row = await repo.findPublished(this.db, team.id, slug);
    if (!row) throw errors.notFound('interview');
    return publicView(row, team.slug, await questionsOf(this.db, [row.id]));
  }

  private async team(slug: string) {
    const team = await repo.findTeamBySlug(this.db, slug);
    if (!team) throw errors.notFound('team');
    return team;
  }
}
