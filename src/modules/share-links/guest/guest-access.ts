import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../../shared/clock.ts';
import type { ShareLinkTokens } from '../link-tokens.ts';
import { guestErrors } from './guest.errors.ts';
import type { GuestMark } from './guest-marks.ts';
import type { GuestTokens } from './guest-tokens.ts';
import { type LinkContent, linkContent } from './link-items.repository.ts';
import { type FileRef, filesAllowed } from './link-rights.ts';
import { findWayInById, findWayInByPublicId, isOpen, type WayIn } from './way-ins.repository.ts';

/** A way in that is live now, with what its link shows now. */
export type Entry = { wayIn: WayIn; content: LinkContent };

/**
 * Finds the way into a link from a token and decides whether it is live, read afresh on every request:
 * an unknown token, a revoked way in, a revoked or expired link and a gone target are one and the same 404.
 */
export class GuestAccess {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly linkTokens: ShareLinkTokens,
    private readonly guestTokens: GuestTokens,
  ) {}

  /** The live way in a token names, without the password check (to unlock it); 404 otherwise. */
  async open(token: string): Promise<Entry> {
    const publicId = this.linkTokens.publicIdOf(token);
    const wayIn = publicId === undefined ? undefined : await findWayInByPublicId(this.db, publicId);
    const entry = wayIn && (await this.live(wayIn));
    if (!entry) throw guestErrors.notFound();
    return entry;
  }

  /** The live way in a token names, unlocked (a link with a password needs a valid guest token). */
  async enter(token: string, guestToken: string | undefined): Promise<Entry> {
    const entry = await this.open(token);
    const { link } = entry.wayIn;
    if (
      link.passwordHash !== null &&
      !this.guestTokens.unlocks(guestToken, entry.wayIn.recipientId, link.passwordVersion, this.clock.now())
    )
      throw guestErrors.passwordRequired();
    return entry;
  }

  /**
   * The file a guest's URL names, when the link still hands it out that way: the way in and its link live,
   * the password unchanged since, the file still part of what the link allows. Undefined otherwise.
   */
  async fileOf(mark: GuestMark): Promise<(Entry & { ref: FileRef }) | undefined> {
    const wayIn = await findWayInById(this.db, mark.recipientId);
    if (!wayIn || wayIn.link.passwordVersion !== mark.passwordVersion) return undefined;
    const entry = await this.live(wayIn);
    if (!entry) return undefined;
    const ref = filesAllowed(entry.content.items, wayIn.link.allowDownload, mark.delivery).get(mark.fileId);
    return ref ? { ...entry, ref } : undefined;
  }

  private async live(wayIn: WayIn): Promise<Entry | undefined> {
    if (!isOpen(wayIn, this.clock.now())) return undefined;
    const content = await linkContent(this.db, wayIn.link);
    return content.gone ? undefined : { wayIn, content };
  }
}
