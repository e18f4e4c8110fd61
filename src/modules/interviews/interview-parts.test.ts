import { beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { interviewHelpers, replaceBody } from './interviews.test-support.ts';

const clock = new TestClock(Date.parse('2031-06-01T08:00:00.000Z'));
const ctx = useTestContext({ clock });
const { newInterview, replace } = interviewHelpers(ctx);

let team: TestTeam;
let other: TestTeam;

beforeAll(async () => {
  team = await ctx.newTeam();
  other = await ctx.newTeam();
});

const get = (url: string, token = team.owner.token) => ctx.request({ method: 'GET', url, token });

/** Every item of a list, following nextCursor with `limit`. */
async function allPages(url: string, limit: number, token = team.owner.token) {
  const items: unknown[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = url.includes('?') ? '&' : '?';
    const res = await get(`${url}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, token);
    expect(res.statusCode, res.body).toBe(200);
    items.push(...res.json().items);
    cursor = res.json().nextCursor;
    pages++;
  } while (cursor);
  return { items, pages };
}

describe('parts of an interview', () => {
  it('lists articles, videos and questions in their order, in pages', async () => {
    const articles = [1, 2, 3].map((n) => ({
      title: `A${n}`,
      url: `https://press.example/${n}`,
      outlet: null,
      publishedAt: null,
    }));
    const videos = [1, 2, 3].map((n) => ({
      title: `V${n}`,
      url: `https://tiktok.com/@band/${n}`,
      platform: 'tiktok',
    }));
    const interview = await newInterview(team, {
      articles,
      videos,
      questions: ['Q1', 'Q2', 'Q3'].map((question) => ({ question, answer: `${question} answered` })),
    });
    const base = `/api/v1/interviews/${interview.id}`;
    expect((await get(`${base}/articles`)).json()).toEqual({ items: articles, nextCursor: null });
    expect((await get(`${base}/videos/`)).json()).toEqual({ items: videos, nextCursor: null });
    expect((await get(`${base}/questions`)).json()).toEqual({ items: interview.questions, nextCursor: null });

    expect(await allPages(`${base}/articles`, 2)).toEqual({ items: articles, pages: 2 });
    expect(await allPages(`${base}/videos`, 1)).toEqual({ items: videos, pages: 3 });
    expect(await allPages(`${base}/questions`, 2)).toEqual({ items: interview.questions, pages: 2 });
  });

  it('answers empty lists for an interview without parts, 404 to outsiders and 400 to bad pages', async () => {
    const bare = await newInterview(team);
    for (const part of ['articles', 'videos', 'questions']) {
      const url = `/api/v1/interviews/${bare.id}/${part}`;
      expect((await get(url)).json()).toEqual({ items: [], nextCursor: null });
      expect((await get(url, other.owner.token)).statusCode).toBe(404);
      for (const query of ['?limit=0', '?limit=201', '?cursor=garbage', '?limit=x'])
        expect((await get(`${url}${query}`)).statusCode, `${part}${query}`).toBe(400);
    }
    const full = await newInterview(team, {
      articles: [1, 2].map((n) => ({ title: `${n}`, url: 'https://a.example' })),
    });
    const page = (await get(`/api/v1/interviews/${full.id}/articles?limit=1`)).json();
    const elsewhere = await get(`/api/v1/interviews/${full.id}/videos?cursor=${page.nextCursor}`);
    expect(elsewhere.statusCode).toBe(400);
  });
});

describe('question bank', () => {
  it("groups the team's questions by wording, counting interviews and the latest asking", async () => {
    const bankTeam = await ctx.newTeam(team.owner);
    const url = `/api/v1/interviews/questions/team?teamId=${bankTeam.id}`;
    expect((await get(url)).json()).toEqual({ items: [], nextCursor: null });

    const t0 = clock.now().toISOString();
    const first = await newInterview(bankTeam, {
      questions: [{ question: 'What inspires you?' }, { question: 'First gig?' }],
    });
    clock.advance(60_000);
    const t1 = clock.now().toISOString();
    const second = await newInterview(bankTeam, {
      questions: [{ question: '  what   INSPIRES you? ' }, { question: 'Next album?' }],
    });
    clock.advance(60_000);
    // The same question twice in one interview counts that interview once.
    const third = await newInterview(bankTeam, {
      questions: [
        { question: 'What inspires you?' },
        { question: 'what inspires you?' },
        { question: 'First gig?' },
      ],
    });
    const t2 = clock.now().toISOString();
    await newInterview(other, { questions: [{ question: 'What inspires you?' }] });

    const bank = (await get(url)).json();
    expect(bank).toEqual({
      items: [
        { question: 'what inspires you?', uses: 3, lastUsedAt: t2, lastInterviewId: third.id },
        { question: 'First gig?', uses: 2, lastUsedAt: t2, lastInterviewId: third.id },
        { question: 'Next album?', uses: 1, lastUsedAt: t1, lastInterviewId: second.id },
      ],
      nextCursor: null,
    });
    expect((await allPages(url, 1)).items).toEqual(bank.items);
    expect(t0 < t1).toBe(true);

    // A reworded question is a new asking of its new wording; one left out no longer counts.
    clock.advance(60_000);
    const t3 = clock.now().toISOString();
    const res = await replace(
      first,
      replaceBody(first, { questions: [{ id: first.questions[0]!.id, question: 'Who are your heroes?' }] }),
      team.owner.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().questions[0].id).toBe(first.questions[0]!.id);
    const after = (await get(url)).json().items;
    expect(after).toEqual([
      { question: 'what inspires you?', uses: 2, lastUsedAt: t2, lastInterviewId: third.id },
      { question: 'Who are your heroes?', uses: 1, lastUsedAt: t3, lastInterviewId: first.id },
      { question: 'First gig?', uses: 1, lastUsedAt: t2, lastInterviewId: third.id },
      { question: 'Next album?', uses: 1, lastUsedAt: t1, lastInterviewId: second.id },
    ]);
  });

  it('needs a teamId of a team of the caller', async () => {
    expect((await get('/api/v1/interviews/questions/team')).statusCode).toBe(400);
    expect((await get(`/api/v1/interviews/questions/team?teamId=${other.id}`)).statusCode).toBe(404);
    const bad = await get(`/api/v1/interviews/questions/team?teamId=${team.id}&cursor=abc`);
    expect(bad.statusCode).toBe(400);
  });
});
