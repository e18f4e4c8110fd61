import { beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import { interviewHelpers, replaceBody } from './interviews.test-support.ts';

const clock = new TestClock(Date.parse('2031-09-10T12:00:00.000Z'));
const ctx = useTestContext({ clock });
const { newInterview, replace, publish } = interviewHelpers(ctx);

let team: TestTeam;
let teamSlug: string;
let stranger: TestTeam;
let strangerKey: string;

beforeAll(async () => {
  team = await ctx.newTeam(undefined, `Published Band ${ctx.unique()}`);
  teamSlug = (
    await ctx.request({ method: 'GET', url: `/api/v1/teams/${team.id}`, token: team.owner.token })
  ).json().slug;
  stranger = await ctx.newTeam();
  strangerKey = await ctx.newApiKey(stranger);
});

const get = (url: string, token: string) => ctx.request({ method: 'GET', url, token });

describe('by slug (members)', () => {
  it("shows a member the team's interview by slugs, drafts included; others get 404", async () => {
    const draft = await newInterview(team, { questions: [{ question: 'Q?' }] });
    const url = `/api/v1/interviews/by-slug/${teamSlug}/${draft.slug}`;
    const member = await ctx.addMember(team, 'member');
    for (const token of [team.owner.token, member.token]) {
      const res = await get(url, token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual(draft);
    }
    expect((await get(url, stranger.owner.token)).statusCode).toBe(404);
    expect(
      (await get(`/api/v1/interviews/by-slug/${teamSlug}/no-such-interview`, member.token)).statusCode,
    ).toBe(404);
    expect(
      (await get(`/api/v1/interviews/by-slug/no-such-team-x/${draft.slug}`, member.token)).statusCode,
    ).toBe(404);
    for (const bad of [`${teamSlug}/Upper`, `-bad-/${draft.slug}`, `${teamSlug}/${'a'.repeat(65)}`]) {
      const res = await get(`/api/v1/interviews/by-slug/${bad}`, member.token);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
  });

  it("does not mix teams: an interview slug of another team is not found under this team's slug", async () => {
    const elsewhere = await newInterview(stranger, { slug: `only-there-${ctx.unique()}` });
    const res = await get(`/api/v1/interviews/by-slug/${teamSlug}/${elsewhere.slug}`, team.owner.token);
    expect(res.statusCode).toBe(404);
  });
});

describe('public', () => {
  it('shows published interviews only, newest publication first, without internal fields', async () => {
    const own = await ctx.newTeam(team.owner);
    const ownSlug = (await get(`/api/v1/teams/${own.id}`, team.owner.token)).json().slug;
    const url = `/api/v1/interviews/public/teams/${ownSlug}`;
    expect((await get(url, strangerKey)).json()).toEqual({ items: [], nextCursor: null });

    const older = await publish(
      own,
      await newInterview(own, {
        intro: 'Hello',
        questions: [{ question: 'Why?', answer: 'Because.' }],
        articles: [{ title: 'Review', url: 'https://press.example/r', outlet: 'Press' }],
        videos: [{ title: 'Clip', url: 'https://youtu.be/c' }],
      }),
    );
    await newInterview(own, { title: 'Still a draft' });
    clock.advance(5000);
    const newer = await publish(own, await newInterview(own));

    const res = await get(url, strangerKey);
    expect(res.statusCode, res.body).toBe(200);
    const { items, nextCursor } = res.json();
    expect(nextCursor).toBeNull();
    expect(items.map((i: { slug: string }) => i.slug)).toEqual([newer.slug, older.slug]);
    expect(items[1]).toEqual({
      teamSlug: ownSlug,
      slug: older.slug,
      title: older.title,
      intro: 'Hello',
      publishedAt: older.publishedAt,
      updatedAt: older.updatedAt,
      questions: [{ question: 'Why?', answer: 'Because.', position: 0 }],
      articles: [{ title: 'Review', url: 'https://press.example/r', outlet: 'Press', publishedAt: null }],
      videos: [{ title: 'Clip', url: 'https://youtu.be/c', platform: 'youtube' }],
    });

    const first = (await get(`${url}?limit=1`, strangerKey)).json();
    expect(first.items.map((i: { slug: string }) => i.slug)).toEqual([newer.slug]);
    const second = (await get(`${url}?limit=1&cursor=${first.nextCursor}`, stranger.owner.token)).json();
    expect(second).toEqual({ items: [items[1]], nextCursor: null });
  });

  it('answers one published interview; a draft, an unpublished one or an unknown slug is 404', async () => {
    const draft = await newInterview(team);
    const live = await publish(team, await newInterview(team, { questions: [{ question: 'Live?' }] }));
    const at = (slug: string) => `/api/v1/interviews/public/teams/${teamSlug}/${slug}`;

    const res = await get(at(live.slug), strangerKey);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ teamSlug, slug: live.slug, publishedAt: live.publishedAt });
    expect(Object.keys(res.json())).not.toEqual(expect.arrayContaining(['id']));
    for (const field of ['id', 'teamId', 'status', 'createdAt', 'createdBy'])
      expect(res.json(), field).not.toHaveProperty(field);
    expect(res.json().questions[0]).not.toHaveProperty('id');

    expect((await get(at(draft.slug), strangerKey)).statusCode).toBe(404);
    expect((await get(at('never-was'), strangerKey)).statusCode).toBe(404);
    expect(
      (await get(`/api/v1/interviews/public/teams/no-team-${ctx.unique()}`, strangerKey)).statusCode,
    ).toBe(404);

    await replace(live, replaceBody(live, { status: 'draft' }), team.owner.token);
    expect((await get(at(live.slug), strangerKey)).statusCode).toBe(404);
    const list = (await get(`/api/v1/interviews/public/teams/${teamSlug}`, strangerKey)).json();
    expect(list.items.map((i: { slug: string }) => i.slug)).not.toContain(live.slug);
  });

  it("follows a change of the team's slug: the old one is 404 at once", async () => {
    const moving = await ctx.newTeam(team.owner);
    const oldSlug = (await get(`/api/v1/teams/${moving.id}`, team.owner.token)).json().slug;
    const live = await publish(moving, await newInterview(moving));
    const newSlug = `moved-${ctx.unique()}`;
    const patched = await ctx.request({
      method: 'PATCH',
      url: `/api/v1/teams/${moving.id}`,
      token: team.owner.token,
      payload: { slug: newSlug },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(
      (await get(`/api/v1/interviews/public/teams/${newSlug}/${live.slug}`, strangerKey)).statusCode,
    ).toBe(200);
    expect(
      (await get(`/api/v1/interviews/public/teams/${oldSlug}/${live.slug}`, strangerKey)).statusCode,
    ).toBe(404);
  });
});
