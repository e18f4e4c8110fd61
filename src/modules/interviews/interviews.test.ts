import { beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestTeam, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { type InterviewBody, interviewHelpers, replaceBody } from './interviews.test-support.ts';

const START = '2031-03-01T10:00:00.000Z';
const clock = new TestClock(Date.parse(START));
const ctx = useTestContext({ clock });
const { newInterview, replace, publish, logOf, countsOf } = interviewHelpers(ctx);

let team: TestTeam;
let member: TestUser;
let other: TestTeam;

beforeAll(async () => {
  team = await ctx.newTeam();
  member = await ctx.addMember(team, 'member');
  other = await ctx.newTeam();
});

const post = (payload: object, token = team.owner.token) =>
  ctx.request({ method: 'POST', url: '/api/v1/interviews/', token, payload });
const get = (url: string, token = team.owner.token) => ctx.request({ method: 'GET', url, token });

describe('create', () => {
  it('creates a draft whose slug comes from its title, and records the activity', async () => {
    const res = await post({ teamId: team.id, title: '  Late Night Talk: Ü-Bahn & Co!  ' }, member.token);
    expect(res.statusCode, res.body).toBe(201);
    const interview = res.json();
    expect(interview).toEqual({
      id: expect.any(Number),
      teamId: team.id,
      title: 'Late Night Talk: Ü-Bahn & Co!',
      slug: 'late-night-talk-u-bahn-and-co',
      status: 'draft',
      publishedAt: null,
      intro: null,
      questions: [],
      articles: [],
      videos: [],
      createdAt: START,
      updatedAt: START,
    });
    expect((await get(`/api/v1/interviews/${interview.id}`)).json()).toEqual(interview);
    const events = (await logOf(team)).filter((e) => e.subjectId === String(interview.id));
    expect(events).toEqual([
      {
        type: 'interview.created',
        subjectType: 'interview',
        subjectId: String(interview.id),
        payload: { slug: interview.slug },
      },
    ]);
  });

  it('keeps the questions in the order given, and fills in articles and videos', async () => {
    const interview = await newInterview(team, {
      intro: 'We met in the studio.',
      questions: [
        { question: '  How did the band start? ', answer: 'In a garage.' },
        { question: 'What is next?' },
        { question: 'Favourite venue?', answer: null },
      ],
      articles: [
        {
          title: 'The garage years',
          url: 'https://press.example/garage',
          outlet: 'Rolling',
          publishedAt: '2030-11-02',
        },
        { title: 'Short note', url: 'http://blog.example/n' },
      ],
      videos: [
        { title: 'Live', url: 'https://www.youtube.com/watch?v=abc' },
        { title: 'Teaser', url: 'https://youtu.be/xyz' },
        { title: 'Mini doc', url: 'https://vimeo.com/1', platform: 'festival-tv' },
        { title: 'Own site', url: 'https://band.example/video.mp4' },
      ],
    });
    expect(interview.intro).toBe('We met in the studio.');
    expect(interview.questions).toEqual([
      { id: expect.any(Number), question: 'How did the band start?', answer: 'In a garage.', position: 0 },
      { id: expect.any(Number), question: 'What is next?', answer: null, position: 1 },
      { id: expect.any(Number), question: 'Favourite venue?', answer: null, position: 2 },
    ]);
    expect(interview.articles).toEqual([
      {
        title: 'The garage years',
        url: 'https://press.example/garage',
        outlet: 'Rolling',
        publishedAt: '2030-11-02',
      },
      { title: 'Short note', url: 'http://blog.example/n', outlet: null, publishedAt: null },
    ]);
    expect(interview.videos.map((v) => v.platform)).toEqual(['youtube', 'youtube', 'festival-tv', null]);
  });

  it('makes generated slugs unique in the team; a chosen slug the team has is 409 and creates nothing', async () => {
    const title = `Tour Diary ${ctx.unique()}`;
    const base = title.toLowerCase().replace(/ /g, '-');
    const first = await newInterview(team, { title });
    const second = await newInterview(team, { title });
    const elsewhere = await newInterview(other, { title });
    expect([first.slug, second.slug, elsewhere.slug]).toEqual([base, `${base}-2`, base]);

    const symbols = await newInterview(team, { title: '?!… ♪♪' });
    expect(symbols.slug).toMatch(/^interview(-\d+)?$/);
    const chosen = await newInterview(team, { slug: `chosen-${ctx.unique()}` });
    expect(chosen.slug).toMatch(/^chosen-/);

    const before = await countsOf(team);
    const taken = await post({
      teamId: team.id,
      title: 'Again',
      slug: first.slug,
      questions: [{ question: 'Q?' }],
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('conflict');
    expect(await countsOf(team)).toEqual(before);
  });

  it('refuses invalid bodies with 400, naming the field, and creates nothing', async () => {
    const before = await countsOf(team);
    const cases: [object, string][] = [
      [{ title: 'No team' }, '/body/teamId'],
      [{ teamId: team.id }, '/body/title'],
      [{ teamId: team.id, title: '   ' }, '/body/title'],
      [{ teamId: team.id, title: 'x'.repeat(201) }, '/body/title'],
      [{ teamId: team.id, title: 'Nul \u0000 byte' }, '/body/title'],
      [{ teamId: team.id, title: 'T', status: 'published' }, '/body/status'],
      [{ teamId: team.id, title: 'T', subtitle: 'typo' }, '/body/subtitle'],
      [{ teamId: team.id, title: 'T', slug: 'Not A Slug' }, '/body/slug'],
      [{ teamId: team.id, title: 'T', slug: '-edge-' }, '/body/slug'],
      [{ teamId: team.id, title: 'T', slug: 'a'.repeat(65) }, '/body/slug'],
      [{ teamId: team.id, title: 'T', questions: [{ question: '' }] }, '/body/questions/0/question'],
      [
        { teamId: team.id, title: 'T', questions: [{ question: 'q'.repeat(501) }] },
        '/body/questions/0/question',
      ],
      [{ teamId: team.id, title: 'T', questions: [{ id: 1, question: 'Q' }] }, '/body/questions/0/id'],
      [{ teamId: team.id, title: 'T', questions: Array(201).fill({ question: 'Q' }) }, '/body/questions'],
      [
        { teamId: team.id, title: 'T', articles: [{ title: 'A', url: 'javascript:alert(1)' }] },
        '/body/articles/0/url',
      ],
      [
        { teamId: team.id, title: 'T', articles: [{ title: 'A', url: 'ftp://files.example/a' }] },
        '/body/articles/0/url',
      ],
      [
        { teamId: team.id, title: 'T', articles: [{ title: 'A', url: 'http://%zz' }] },
        '/body/articles/0/url',
      ],
      [
        {
          teamId: team.id,
          title: 'T',
          articles: [{ title: 'A', url: 'https://a.example', publishedAt: '2030-02-30' }],
        },
        '/body/articles/0/publishedAt',
      ],
      [{ teamId: team.id, title: 'T', videos: [{ url: 'https://vimeo.com/1' }] }, '/body/videos/0/title'],
      [
        {
          teamId: team.id,
          title: 'T',
          videos: [{ title: 'V', url: `https://v.example/${'x'.repeat(2048)}` }],
        },
        '/body/videos/0/url',
      ],
      [{ teamId: 'abc', title: 'T' }, '/body/teamId'],
      [{ teamId: 99_999_999_999, title: 'T' }, '/body/teamId'],
    ];
    for (const [payload, path] of cases) {
      const res = await post(payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 120)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect(await countsOf(team)).toEqual(before);
  });

  it('answers 404 for a team the caller is not in, and creates nothing there', async () => {
    const res = await post({ teamId: other.id, title: 'Sneaky' });
    expect(res.statusCode).toBe(404);
    const missing = await post({ teamId: 2_000_000_000, title: 'Nowhere' });
    expect(missing.statusCode).toBe(404);
  });
});

describe('list', () => {
  it("pages the team's interviews newest first, with their questions, and filters by status", async () => {
    const listed = await ctx.newTeam(team.owner);
    const a = await newInterview(listed, { questions: [{ question: 'A1' }, { question: 'A2' }] });
    const b = await publish(listed, await newInterview(listed));
    const c = await newInterview(listed);

    const notMember = await get(`/api/v1/interviews/?teamId=${listed.id}`, member.token);
    expect(notMember.statusCode).toBe(404);
    const page1 = (await get(`/api/v1/interviews?teamId=${listed.id}&limit=2`)).json();
    expect(page1.items.map((i: InterviewBody) => i.id)).toEqual([c.id, b.id]);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const page2 = (
      await get(`/api/v1/interviews/?teamId=${listed.id}&limit=2&cursor=${page1.nextCursor}`)
    ).json();
    expect(page2).toEqual({ items: [a], nextCursor: null });

    const drafts = (await get(`/api/v1/interviews/?teamId=${listed.id}&status=draft`)).json();
    expect(drafts.items.map((i: InterviewBody) => i.id)).toEqual([c.id, a.id]);
    const published = (await get(`/api/v1/interviews/?teamId=${listed.id}&status=published`)).json();
    expect(published).toEqual({ items: [b], nextCursor: null });

    const otherFilter = await get(
      `/api/v1/interviews/?teamId=${listed.id}&status=draft&limit=2&cursor=${page1.nextCursor}`,
    );
    expect(otherFilter.statusCode).toBe(400);
  });

  it('needs a teamId of a team of the caller, and a valid page', async () => {
    for (const query of [
      '',
      '?teamId=abc',
      `?teamId=${team.id}&limit=0`,
      `?teamId=${team.id}&limit=201`,
      `?teamId=${team.id}&status=live`,
      `?teamId=${team.id}&cursor=nonsense`,
    ]) {
      const res = await get(`/api/v1/interviews/${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    expect((await get(`/api/v1/interviews/?teamId=${other.id}`)).statusCode).toBe(404);
  });
});

describe('replace', () => {
  it('keeps question ids in the order sent, adds new ones and deletes those left out', async () => {
    const interview = await newInterview(team, {
      questions: [{ question: 'One?' }, { question: 'Two?' }, { question: 'Three?' }],
    });
    const [one, two, three] = interview.questions;
    const res = await replace(
      interview,
      replaceBody(interview, {
        questions: [
          { id: three!.id, question: 'Three?', answer: 'Third answer' },
          { question: 'New?' },
          { id: one!.id, question: 'One, reworded?' },
        ],
      }),
      member.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const questions = res.json().questions;
    expect(questions).toEqual([
      { id: three!.id, question: 'Three?', answer: 'Third answer', position: 0 },
      { id: expect.any(Number), question: 'New?', answer: null, position: 1 },
      { id: one!.id, question: 'One, reworded?', answer: null, position: 2 },
    ]);
    expect([one!.id, two!.id, three!.id]).not.toContain(questions[1].id);
    expect((await get(`/api/v1/interviews/${interview.id}`)).json().questions).toEqual(questions);
    const listed = (await get(`/api/v1/interviews/${interview.id}/questions`)).json();
    expect(listed.items).toEqual(questions);
  });

  it('replaces the content: what is left out is cleared, while slug and status stay', async () => {
    const full = await newInterview(team, {
      intro: 'Intro',
      questions: [{ question: 'Q?' }],
      articles: [{ title: 'A', url: 'https://a.example' }],
      videos: [{ title: 'V', url: 'https://vimeo.com/2' }],
    });
    const published = await publish(team, full);
    clock.advance(60_000);
    const res = await replace(published, { title: '  Only a title  ' }, team.owner.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      ...published,
      title: 'Only a title',
      intro: null,
      questions: [],
      articles: [],
      videos: [],
      updatedAt: clock.now().toISOString(),
    });
  });

  it('stamps publishedAt on publishing, keeps it while published, and clears it on going back to draft', async () => {
    const draft = await newInterview(team);
    clock.advance(1000);
    const publishedAt = clock.now().toISOString();
    const published = await publish(team, draft);
    expect(published).toMatchObject({ status: 'published', publishedAt, updatedAt: publishedAt });

    clock.advance(1000);
    const edited = (
      await replace(published, replaceBody(published, { intro: 'Edited' }), member.token)
    ).json();
    expect(edited).toMatchObject({ status: 'published', publishedAt, intro: 'Edited' });

    clock.advance(1000);
    const unpublished = (
      await replace(edited, replaceBody(edited, { status: 'draft' }), member.token)
    ).json();
    expect(unpublished).toMatchObject({ status: 'draft', publishedAt: null });

    clock.advance(1000);
    const again = await publish(team, unpublished);
    expect(again.publishedAt).toBe(clock.now().toISOString());

    const actions = (await logOf(team)).filter((e) => e.subjectId === String(draft.id)).map((e) => e.type);
    expect(actions).toEqual([
      'interview.created',
      'interview.published',
      'interview.updated',
      'interview.unpublished',
      'interview.published',
    ]);
  });

  it('refuses question ids of another interview or sent twice, and changes nothing', async () => {
    const interview = await newInterview(team, {
      questions: [{ question: 'Mine?' }, { question: 'Also mine?' }],
    });
    const foreign = await newInterview(team, { questions: [{ question: 'Not yours?' }] });
    const mine = interview.questions[0]!.id;
    const before = await countsOf(team);
    for (const [questions, path] of [
      [[{ id: foreign.questions[0]!.id, question: 'Stolen?' }], '/body/questions/0/id'],
      [
        [{ question: 'Fine?' }, { id: mine, question: 'A' }, { id: mine, question: 'B' }],
        '/body/questions/2/id',
      ],
      [[{ id: 2_000_000_000, question: 'Unknown?' }], '/body/questions/0/id'],
    ] as const) {
      const res = await replace(
        interview,
        replaceBody(interview, { questions, intro: 'changed' }),
        team.owner.token,
      );
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().details).toEqual([{ path, message: expect.any(String) }]);
    }
    expect((await get(`/api/v1/interviews/${interview.id}`)).json()).toEqual(interview);
    expect((await get(`/api/v1/interviews/${foreign.id}`)).json()).toEqual(foreign);
    expect(await countsOf(team)).toEqual(before);
  });

  it('changes the slug; a slug another interview of the team has is 409 and changes nothing', async () => {
    const a = await newInterview(team);
    const b = await newInterview(team);
    const slug = `renamed-${ctx.unique()}`;
    const renamed = await replace(a, replaceBody(a, { slug }), team.owner.token);
    expect(renamed.json().slug).toBe(slug);
    const clash = await replace(
      b,
      replaceBody(b, { slug, intro: 'lost', status: 'published' }),
      team.owner.token,
    );
    expect(clash.statusCode).toBe(409);
    expect((await get(`/api/v1/interviews/${b.id}`)).json()).toEqual(b);
    const same = await replace(a, replaceBody(a, { slug }), team.owner.token);
    expect(same.statusCode).toBe(200);
  });

  it('validates the body, and answers 404 for another team and for a missing interview', async () => {
    const interview = await newInterview(team);
    for (const payload of [
      {},
      { title: 'T', status: 'live' },
      { title: 'T', teamId: team.id },
      { title: 'T', slug: 'UPPER' },
    ]) {
      const res = await replace(interview, payload, team.owner.token);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await replace(interview, { title: 'T' }, other.owner.token)).statusCode).toBe(404);
    expect(
      (await replace({ ...interview, id: 2_000_000_000 }, { title: 'T' }, team.owner.token)).statusCode,
    ).toBe(404);
  });
});

describe('read and delete', () => {
  it('deletes an interview with its questions (204), then answers 404', async () => {
    const interview = await newInterview(team, { questions: [{ question: 'Gone?' }] });
    const before = await countsOf(team);
    expect(
      (
        await ctx.request({
          method: 'DELETE',
          url: `/api/v1/interviews/${interview.id}`,
          token: other.owner.token,
        })
      ).statusCode,
    ).toBe(404);
    const res = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/interviews/${interview.id}`,
      token: member.token,
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await countsOf(team)).toEqual({
      interviews: before.interviews - 1,
      questions: before.questions - 1,
    });
    for (const suffix of ['', '/questions', '/articles', '/videos'])
      expect((await get(`/api/v1/interviews/${interview.id}${suffix}`)).statusCode).toBe(404);
    const again = await ctx.request({
      method: 'DELETE',
      url: `/api/v1/interviews/${interview.id}`,
      token: member.token,
    });
    expect(again.statusCode).toBe(404);
    const deleted = (await logOf(team)).filter((e) => e.subjectId === String(interview.id)).at(-1);
    expect(deleted).toMatchObject({
      type: 'interview.deleted',
      payload: { slug: interview.slug, title: interview.title },
    });
  });

  it('answers 400 for ids that are not positive integers and 404 for unknown ones', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '99999999999'])
      expect((await get(`/api/v1/interviews/${id}`)).statusCode, id).toBe(400);
    expect((await get('/api/v1/interviews/2000000000')).statusCode).toBe(404);
  });
});
