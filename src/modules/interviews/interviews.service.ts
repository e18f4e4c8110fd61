import type { Db } from '../../db/client.ts';
import type { InterviewStatus } from '../../db/schema/index.ts';
import { actorOf } from '../../events/actor.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { sqlState } from '../../shared/db-errors.ts';
import { errors } from '../../shared/errors.ts';
import { decodeIdCursor, toPage } from '../../shared/pagination.ts';
import { insertWithFreeSlug, slugFrom } from '../../shared/slugs.ts';
import { requireTeam } from '../../shared/tenancy.ts';
import { requireInterview } from './interview-access.ts';
import { type Content, type ContentInput, checkKeptQuestions, contentOf } from './interview-input.ts';
import { interviewView, withQuestions } from './interview-view.ts';
import * as repo from './interviews.repository.ts';
import { insertQuestions, questionIdsOf, questionsOf, replaceQuestions } from './questions.repository.ts';

export type InterviewListInput = {
  teamId: number;
  status?: InterviewStatus | undefined;
  limit: number;
  cursor?: string | undefined;
};

export type CreateInterviewInput = ContentInput & { teamId: number; slug?: string | undefined };
export type ReplaceInterviewInput = ContentInput & {
  slug?: string | undefined;
  status?: InterviewStatus | undefined;
};

const valuesOf = (content: Content, slug: string, status: InterviewStatus, publishedAt: Date | null) => ({
  title: content.title,
  slug,
  status,
  publishedAt,
  intro: content.intro,
  articles: content.articles,
  videos: content.videos,
});

/** 409 instead of the unique index's refusal when a slug the client chose is taken in the team. */
async function withChosenSlug<T>(slug: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (sqlState(error) === '23505')
      throw errors.conflict(`Another interview of this team has the slug ${slug ?? 'made from this title'}`);
    throw error;
  }
}

/**
 * A team's interviews: list, read, create, replace and delete, each write with its event in the log. A new
 * interview is a draft; publishing stamps `publishedAt` (kept while it stays published), and going back to
 * draft clears it.
 */
export class InterviewsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly events: EventLog,
  ) {}

  /** A page of the team's interviews, newest first. */
  async list(principal: Principal, input: InterviewListInput) {
    await requireTeam(this.db, principal, input.teamId);
    const before = decodeIdCursor(input.cursor);
    const filter = { teamId: input.teamId, status: input.status };
    const rows = await repo.listInterviews(this.db, filter, before, input.limit + 1);
    const page = toPage(rows, input.limit, (last) => last.id);
    const questions = await questionsOf(
      this.db,
      page.items.map((row) => row.id),
    );
    return { items: withQuestions(page.items, questions, interviewView), nextCursor: page.nextCursor };
  }

  async get(principal: Principal, id: number) {
    const row = await requireInterview(this.db, principal, id);
    return interviewView(row, await questionsOf(this.db, [id]));
  }

  async create(principal: Principal, input: CreateInterviewInput) {
    const { teamId, slug, ...fields } = input;
    await requireTeam(this.db, principal, teamId);
    const content = contentOf(fields);
    const now = this.clock.now();
    const stamps = { teamId, actor: actorOf(principal), now };
    const insert = (db: Db, chosen: string) =>
      repo.insertInterview(db, valuesOf(content, chosen, 'draft', null), stamps);
    return withChosenSlug(slug, () =>
      this.db.transaction(async (tx) => {
        const row =
          slug === undefined
            ? await insertWithFreeSlug(
                tx,
                repo.interviewSlugs(teamId),
                slugFrom(content.title, 'interview'),
                insert,
              )
            : await insert(tx, slug);
        await insertQuestions(tx, { interviewId: row.id, teamId }, content.questions, now);
        await this.record(tx, principal, teamId, 'interview.created', row.id, { slug: row.slug });
        return interviewView(row, await questionsOf(tx, [row.id]));
      }),
    );
  }

  /** Replaces the content; slug and status change only when given. */
  async replace(principal: Principal, id: number, input: ReplaceInterviewInput) {
    const { teamId } = await requireInterview(this.db, principal, id);
    const content = contentOf(input);
    const now = this.clock.now();
    return withChosenSlug(input.slug, () =>
      this.db.transaction(async (tx) => {
        const current = await repo.lockInterview(tx, teamId, id);
        if (!current) throw errors.notFound('interview');
        checkKeptQuestions(content.questions, await questionIdsOf(tx, id));
        const status = input.status ?? current.status;
        const publishedAt = status === 'draft' ? null : (current.publishedAt ?? now);
        const values = valuesOf(content, input.slug ?? current.slug, status, publishedAt);
        const row = await repo.updateInterview(tx, id, values, now);
        await replaceQuestions(tx, { interviewId: id, teamId }, content.questions, now);
        const action =
          status === current.status
            ? 'interview.updated'
            : status === 'published'
              ? 'interview.published'
              : 'interview.unpublished';
        await this.record(tx, principal, teamId, action, id, { slug: row.slug, status });
        return interviewView(row, await questionsOf(tx, [id]));
      }),
    );
  }

  async remove(principal: Principal, id: number): Promise<void> {
    const { teamId } = await requireInterview(this.db, principal, id);
    await this.db.transaction(async (tx) => {
      const row = await repo.deleteInterview(tx, teamId, id);
      if (!row) throw errors.notFound('interview');
      await this.record(tx, principal, teamId, 'interview.deleted', id, {
        slug: row.slug,
        title: row.title,
      });
    });
  }

  private record(
    tx: Db,
    principal: Principal,
    teamId: number,
    type: string,
    interviewId: number,
    payload: Record<string, unknown>,
  ) {
    return this.events.record(tx, {
      type,
      subject: { type: 'interview', id: interviewId },
      actor: actorOf(principal),
      teamId,
      payload,
    });
  }
}
