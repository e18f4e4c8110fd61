import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';
import { shareLinkActivity, shareLinkRecipients } from '../../db/schema/index.ts';
import { shareLinkHelpers } from './share-links.test-support.ts';

const ctx = useTestContext();
const { call, newLink } = shareLinkHelpers(ctx);

const at = (minute: number) => new Date(Date.UTC(2030, 0, 2, 10, minute));

/**
 * A link with two recipients whose counters and activity rows are written as guests' visits write them:
 * the general way in opened once and played; Anna opened, played twice and downloaded; Ben (revoked later)
 * commented.
 */
async function visitedLink() {
  const team = await ctx.newTeam();
  const track = await ctx.newTrack(team);
  const link = await newLink(team, {
    target: { trackId: track.id },
    recipients: ['anna@example.test', 'ben@example.test'],
  });
  const db = ctx.database.db;
  const ways = await db.select().from(shareLinkRecipients).where(eq(shareLinkRecipients.linkId, link.id));
  const general = ways.find((w) => w.email === null)!.id;
  const anna = ways.find((w) => w.email === 'anna@example.test')!.id;
  const ben = ways.find((w) => w.email === 'ben@example.test')!.id;
  const counts = [
    [general, { opens: 1, plays: 1, secondsListened: 30, firstSeenAt: at(5), lastSeenAt: at(6) }],
    [
      anna,
      { opens: 2, plays: 2, secondsListened: 200.5, downloads: 1, firstSeenAt: at(1), lastSeenAt: at(20) },
    ],
    [ben, { opens: 1, comments: 1, firstSeenAt: at(10), lastSeenAt: at(11) }],
  ] as const;
  for (const [id, values] of counts)
    await db.update(shareLinkRecipients).set(values).where(eq(shareLinkRecipients.id, id));
  const activity = (
    recipientId: number,
    kind: 'open' | 'play' | 'download' | 'comment',
    minute: number,
    extra = {},
  ) => ({
    linkId: link.id,
    recipientId,
    kind,
    at: at(minute),
    ...extra,
  });
  await db
    .insert(shareLinkActivity)
    .values([
      activity(anna, 'open', 1),
      activity(anna, 'play', 2, { versionId: track.versionId, seconds: 120, playId: crypto.randomUUID() }),
      activity(general, 'open', 5),
      activity(general, 'play', 6, { versionId: track.versionId, seconds: 30, playId: crypto.randomUUID() }),
      activity(ben, 'open', 10),
      activity(ben, 'comment', 11, { versionId: track.versionId }),
      activity(anna, 'play', 19, { versionId: track.versionId, seconds: 80.5, playId: crypto.randomUUID() }),
      activity(anna, 'download', 20, { versionId: track.versionId }),
    ]);
  await call('DELETE', `/api/v1/share-links/${link.id}/recipients/${ben}`, team.owner.token, undefined, 204);
  return { team, track, link, general, anna, ben };
}

describe('activity of a review link', () => {
  it('answers the totals, each way in with its counts, and the events newest first', async () => {
    const { team, track, link, general, anna, ben } = await visitedLink();
    const res = await call(
      'GET',
      `/api/v1/share-links/${link.id}/activity`,
      team.owner.token,
      undefined,
      200,
    );
    const totals = {
      opens: 4,
      plays: 3,
      secondsListened: 230.5,
      downloads: 1,
      comments: 1,
      firstSeenAt: at(1).toISOString(),
      lastSeenAt: at(20).toISOString(),
    };
    expect(res.body.totals).toEqual(totals);
    expect(res.body.recipients.map((r: { id: number; email: string | null }) => [r.id, r.email])).toEqual([
      [general, null],
      [anna, 'anna@example.test'],
      [ben, 'ben@example.test'],
    ]);
    expect(res.body.recipients[1].stats).toMatchObject({
      opens: 2,
      plays: 2,
      secondsListened: 200.5,
      downloads: 1,
    });
    expect(res.body.items.map((i: { kind: string; recipientId: number }) => [i.kind, i.recipientId])).toEqual(
      [
        ['download', anna],
        ['play', anna],
        ['comment', ben],
        ['open', ben],
        ['play', general],
        ['open', general],
        ['play', anna],
        ['open', anna],
      ],
    );
    expect(res.body.items[1]).toMatchObject({
      recipientEmail: 'anna@example.test',
      versionId: track.versionId,
      stemId: null,
      fileId: null,
      seconds: 80.5,
      at: at(19).toISOString(),
    });
    expect(res.body.items[4].recipientEmail).toBeNull();
    expect(res.body.nextCursor).toBeNull();

    // The link's own stats are the same sums (the revoked recipient's counts stay).
    const got = await call('GET', `/api/v1/share-links/${link.id}`, team.owner.token, undefined, 200);
    expect(got.body.stats).toEqual(totals);
    expect(got.body.recipients.map((r: { stats: { opens: number } }) => r.stats.opens)).toEqual([2, 1]);
  });

  it('filters by way in and kind, in keyset pages', async () => {
    const { team, link, anna } = await visitedLink();
    const url = `/api/v1/share-links/${link.id}/activity`;
    const get = async (query: string) =>
      (await call('GET', `${url}?${query}`, team.owner.token, undefined, 200)).body;
    const annas = await get(`recipientId=${anna}&limit=2`);
    expect(annas.items.map((i: { kind: string }) => i.kind)).toEqual(['download', 'play']);
    const rest = await get(`recipientId=${anna}&limit=2&cursor=${annas.nextCursor}`);
    expect(rest.items.map((i: { kind: string }) => i.kind)).toEqual(['play', 'open']);
    expect(rest.nextCursor).toBeNull();
    const plays = await get('kind=play');
    expect(plays.items.map((i: { seconds: number }) => i.seconds)).toEqual([80.5, 30, 120]);
    // Filters narrow the events, never the totals.
    expect(plays.totals.opens).toBe(4);
    expect((await call('GET', `${url}?kind=listen`, team.owner.token)).status).toBe(400);
    expect((await call('GET', `${url}?cursor=nonsense`, team.owner.token)).status).toBe(400);
  });

  it("does not show another link's activity", async () => {
    const { team } = await visitedLink();
    const quiet = await newLink(team);
    const res = await call(
      'GET',
      `/api/v1/share-links/${quiet.id}/activity`,
      team.owner.token,
      undefined,
      200,
    );
    expect(res.body.items).toEqual([]);
    expect(res.body.totals).toMatchObject({ opens: 0, plays: 0, firstSeenAt: null });
  });
});
