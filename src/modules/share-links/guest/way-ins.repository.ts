import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { shareLinkRecipients, shareLinks, teams } from '../../../db/schema/index.ts';
import { linkStatusOf } from '../link-status.ts';

const wayInColumns = {
  recipientId: shareLinkRecipients.id,
  email: shareLinkRecipients.email,
  recipientRevokedAt: shareLinkRecipients.revokedAt,
  lastSeenAt: shareLinkRecipients.lastSeenAt,
  link: {
    id: shareLinks.id,
    teamId: shareLinks.teamId,
    targetType: shareLinks.targetType,
    trackId: shareLinks.trackId,
    versionId: shareLinks.versionId,
    albumId: shareLinks.albumId,
    trackIds: shareLinks.trackIds,
    title: shareLinks.title,
    message: shareLinks.message,
    expiresAt: shareLinks.expiresAt,
    passwordHash: shareLinks.passwordHash,
    passwordVersion: shareLinks.passwordVersion,
    allowDownload: shareLinks.allowDownload,
    allowStems: shareLinks.allowStems,
    allowComments: shareLinks.allowComments,
    revokedAt: shareLinks.revokedAt,
  },
  teamName: teams.name,
};

/** A way into a review link with its link and the link's team, as one row. */
export type WayIn = NonNullable<Awaited<ReturnType<typeof findWayInByPublicId>>>;
export type GuestLink = WayIn['link'];

function selectWayIn(db: Db) {
  return db
    .select(wayInColumns)
    .from(shareLinkRecipients)
    .innerJoin(shareLinks, eq(shareLinks.id, shareLinkRecipients.linkId))
    .innerJoin(teams, eq(teams.id, shareLinks.teamId));
}

/** The way in with this public id (the part of a token that is stored), or undefined. */
export async function findWayInByPublicId(db: Db, publicId: string) {
  const [row] = await selectWayIn(db).where(eq(shareLinkRecipients.publicId, publicId));
  return row;
}

/** The way in with this id, or undefined. */
export async function findWayInById(db: Db, recipientId: number): Promise<WayIn | undefined> {
  const [row] = await selectWayIn(db).where(eq(shareLinkRecipients.id, recipientId));
  return row;
}

/** Whether neither the way in nor its link was revoked and the link has not expired at `now`. */
export function isOpen(wayIn: WayIn, now: Date): boolean {
  return wayIn.recipientRevokedAt === null && linkStatusOf(wayIn.link, false, now) === 'active';
}
