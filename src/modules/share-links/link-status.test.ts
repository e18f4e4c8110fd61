import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';
import { shareLinks } from '../../db/schema/index.ts';
import { linkStatusOf, shareLinkStatus } from './link-status.ts';
import { shareLinkHelpers } from './share-links.test-support.ts';

const ctx = useTestContext();
const { call, newLink } = shareLinkHelpers(ctx);

describe('the status of a review link', () => {
  it('reads the same from the database as from its columns, revoked before expired before gone', async () => {
    const team = await ctx.newTeam();
    const track = await ctx.newTrack(team);
    const link = await newLink(team, { target: { trackId: track.id } });
    const now = new Date();
    const db = ctx.database.db;
    const check = async (expected: string, targetGone: boolean) => {
      const [row] = await db.select().from(shareLinks).where(eq(shareLinks.id, link.id));
      expect(await shareLinkStatus(db, link.id, now)).toBe(expected);
      expect(linkStatusOf(row!, targetGone, now)).toBe(expected);
    };
    await check('active', false);
    await call('DELETE', `/api/v1/tracks/${track.id}`, team.owner.token, undefined, 204);
    await check('gone', true);
    await db.update(shareLinks).set({ expiresAt: now }).where(eq(shareLinks.id, link.id));
    await check('expired', true);
    await db.update(shareLinks).set({ revokedAt: now }).where(eq(shareLinks.id, link.id));
    await check('revoked', true);
    expect(await shareLinkStatus(db, 2_000_000_000, now)).toBeUndefined();
  });
});
