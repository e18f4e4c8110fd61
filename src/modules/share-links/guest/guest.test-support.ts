import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestContext, TestTeam, TestTrack } from '../../../../test/helpers/context.ts';
import type { StorageTestContext } from '../../../../test/helpers/storage.ts';
import { registerVersionAudio } from '../../../../test/helpers/version-uploads.ts';
import {
  domainEvents,
  type ShareDownload,
  shareLinkRecipients,
  shareLinks,
  versionStems,
} from '../../../db/schema/index.ts';
import { Passwords } from '../../auth/passwords.ts';
import { ShareLinkTokens } from '../link-tokens.ts';

export type LinkTarget =
  | { trackId: number }
  | { versionId: number; trackId: number }
  | { albumId: number }
  | { trackIds: number[] };

export type LinkSpec = {
  target: LinkTarget;
  title?: string;
  message?: string;
  expiresAt?: Date;
  password?: string;
  allowDownload?: ShareDownload;
  allowStems?: number[];
  allowComments?: boolean;
  recipients?: string[];
};

export type WayInHandle = { id: number; token: string; url: string };
export type TestLink = { id: number; general: WayInHandle; recipients: (WayInHandle & { email: string })[] };

function targetColumns(target: LinkTarget) {
  if ('versionId' in target)
    return { targetType: 'version' as const, trackId: target.trackId, versionId: target.versionId };
  if ('trackId' in target) return { targetType: 'track' as const, trackId: target.trackId };
  if ('albumId' in target) return { targetType: 'album' as const, albumId: target.albumId };
  return { targetType: 'playlist' as const, trackIds: target.trackIds };
}

/**
 * A review link of the team made the way the management side stores one (directly in the tables): the link,
 * its general way in and one way in per recipient, each with its token.
 */
export async function insertShareLink(ctx: TestContext, team: TestTeam, spec: LinkSpec): Promise<TestLink> {
  const db = ctx.database.db;
  const tokens = new ShareLinkTokens(ctx.app.deps.secrets.urlSigningSecret);
  const passwordHash = spec.password
    ? await new Passwords(ctx.config.auth.passwordHashing).hash(spec.password)
    : null;
  return db.transaction(async (tx) => {
    const [link] = await tx
      .insert(shareLinks)
      .values({
        teamId: team.id,
        ...targetColumns(spec.target),
        title: spec.title ?? 'Mixes for review',
        message: spec.message ?? null,
        expiresAt: spec.expiresAt ?? null,
        passwordHash,
        allowDownload: spec.allowDownload ?? 'none',
        allowStems: spec.allowStems ?? [],
        allowComments: spec.allowComments ?? false,
        createdBy: team.owner.id,
      })
      .returning({ id: shareLinks.id });
    const wayIn = async (email: string | null) => {
      const publicId = tokens.newPublicId();
      const [row] = await tx
        .insert(shareLinkRecipients)
        .values({ linkId: link!.id, email, publicId })
        .returning({ id: shareLinkRecipients.id });
      const token = tokens.tokenOf(publicId);
      return { id: row!.id, token, url: `/api/v1/shared/${token}` };
    };
    const general = await wayIn(null);
    const recipients = [];
    for (const email of spec.recipients ?? []) recipients.push({ ...(await wayIn(email)), email });
    return { id: link!.id, general, recipients };
  });
}

/** Helpers of the guest tests over one storage test context. */
export function guestHelpers(ctx: StorageTestContext) {
  const db = () => ctx.database.db;

  /** A track whose newest version has registered audio; answers the track and that version's id. */
  async function trackWithAudio(team: TestTeam): Promise<{ track: TestTrack; versionId: number }> {
    const track = await ctx.newTrack(team);
    const version = await registerVersionAudio(ctx, team, track);
    return { track, versionId: version.id };
  }

  /** GET of a link's view, with a guest token when given. */
  function view(url: string, guestToken?: string) {
    return ctx.request({
      method: 'GET',
      url,
      ...(guestToken ? { headers: { 'guest-token': guestToken } } : {}),
    });
  }

  async function viewOk(url: string, guestToken?: string) {
    const res = await view(url, guestToken);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  /** A URL the service handed out, fetched as a client would. */
  const fetchPath = (url: string, init?: { method?: string; headers?: Record<string, string> }) =>
    ctx.fetchUrl(url, init);

  async function wayInStats(recipientId: number) {
    const [row] = await db()
      .select()
      .from(shareLinkRecipients)
      .where(eq(shareLinkRecipients.id, recipientId));
    return row!;
  }

  async function eventsOf(type: string, linkId: number) {
    return db()
      .select()
      .from(domainEvents)
      .where(sql`${domainEvents.type} = ${type} and ${domainEvents.subjectId} = ${String(linkId)}`);
  }

  async function setLink(linkId: number, fields: Partial<typeof shareLinks.$inferInsert>) {
    await db().update(shareLinks).set(fields).where(eq(shareLinks.id, linkId));
  }

  async function setStemRights(stemId: number, restricted: boolean, downloadableBy: string[] = []) {
    await db().update(versionStems).set({ restricted, downloadableBy }).where(eq(versionStems.id, stemId));
  }

  return { trackWithAudio, view, viewOk, fetchPath, wayInStats, eventsOf, setLink, setStemRights };
}
