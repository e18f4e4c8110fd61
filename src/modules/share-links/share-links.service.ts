import type { Static } from '@sinclair/typebox';
import type { Db } from '../../db/client.ts';
import { actorOf } from '../../events/actor.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { Principal } from '../../plugins/auth.ts';
import { createdByOf } from '../../shared/authorship.ts';
import type { Clock } from '../../shared/clock.ts';
import { isKeyInstant, isKeyInt } from '../../shared/cursor-values.ts';
import { normaliseEmail } from '../../shared/email.ts';
import { errors } from '../../shared/errors.ts';
import { decodeCursor, decodeIdCursor, toPage } from '../../shared/pagination.ts';
import type { RateLimits } from '../../shared/rate-limits.ts';
import type { Passwords } from '../auth/passwords.ts';
import { requireLinkManager, requireTeamManager } from './link-access.ts';
import { mailRecipients, sharerNames, withMailBudget } from './recipient-mail.ts';
import { checkAllowedStems, resolveTarget, targetPhrase } from './share-link-targets.ts';
import { recipientView, shareLinkView, statsOf, sumStats, type WayInAddresses } from './share-link-view.ts';
import * as repo from './share-links.repository.ts';
import type {
  ActivityQuery,
  CreateShareLinkBody,
  PatchShareLinkBody,
  ShareLinkListQuery,
} from './share-links.schemas.ts';

type CreateInput = Static<typeof CreateShareLinkBody>;
type PatchInput = Static<typeof PatchShareLinkBody>;
type ListQuery = Static<typeof ShareLinkListQuery>;
type ActivityInput = Static<typeof ActivityQuery>;

const isLinkKey = (value: unknown): value is repo.LinkKey =>
  Array.isArray(value) && value.length === 2 && isKeyInstant(value[0]) && isKeyInt(value[1]) && value[1] > 0;

/** Review links of a team: made, listed, changed and revoked by its owners and admins (and its keys). */
export class ShareLinksService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly passwords: Passwords,
    private readonly mailer: Mailer,
    private readonly addresses: WayInAddresses,
    private readonly limits: RateLimits,
  ) {}

  /** Creates a link with its general way in and one per recipient, and mails each recipient their URL. */
  async create(principal: Principal, input: CreateInput) {
    await requireTeamManager(this.db, principal, input.teamId);
    const now = this.clock.now();
    const expiresAt = this.futureInstant(input.expiresAt, now);
    const recipients = distinctRecipients(input.recipients ?? []);
    const passwordHash = input.password === undefined ? null : await this.passwords.hash(input.password);
    const make = () =>
      this.db.transaction(async (tx) => {
        const target = await resolveTarget(tx, input.teamId, input.target);
        const allowStems = input.allowStems ?? [];
        await checkAllowedStems(tx, target.columns, allowStems);
        const link = await repo.insertLink(tx, {
          teamId: input.teamId,
          ...target.columns,
          title: input.title ?? null,
          message: input.message ?? null,
          expiresAt,
          passwordHash,
          allowDownload: input.allowDownload ?? 'none',
          allowStems,
          allowComments: input.allowComments ?? false,
          ...createdByOf(actorOf(principal)),
          createdAt: now,
          updatedAt: now,
        });
        const ways = await repo.insertWaysIn(tx, [
          { linkId: link.id, email: null, publicId: this.addresses.newPublicId(), createdAt: now },
          ...recipients.map((email) => ({
            linkId: link.id,
            email,
            publicId: this.addresses.newPublicId(),
            createdAt: now,
          })),
        ]);
        const mailed = ways.filter((way) => way.email !== null);
        await this.mail(tx, link, target.phrase, mailed);
        return shareLinkView(this.addresses, { ...link, status: 'active' }, ways);
      });
    return withMailBudget(this.limits, input.teamId, recipients.length, make);
  }

  /** A team's links, newest first, filtered by status, track or album. */
  async list(principal: Principal, query: ListQuery) {
    await requireTeamManager(this.db, principal, query.teamId);
    const limit = query.limit ?? 50;
    const after = decodeCursor(query.cursor, isLinkKey);
    const filters: repo.LinkFilters = {
      ...(query.status ? { status: query.status } : {}),
      ...(query.trackId === undefined ? {} : { trackId: query.trackId }),
      ...(query.albumId === undefined ? {} : { albumId: query.albumId }),
    };
    const rows = await repo.listLinks(this.db, query.teamId, filters, { limit, after }, this.clock.now());
    const page = toPage(rows, limit, (last): repo.LinkKey => [last.createdAt.toISOString(), last.id]);
    const ways = await repo.waysInOf(
      this.db,
      page.items.map((link) => link.id),
    );
    return {
      items: page.items.map((link) => shareLinkView(this.addresses, link, ways)),
      nextCursor: page.nextCursor,
    };
  }

  async get(principal: Principal, id: number) {
    const link = await requireLinkManager(this.db, principal, id, this.clock.now());
    return this.view(this.db, link.id);
  }

  /** Changes what a link says and allows (not its target); a revoked link is 409 `link_revoked`. */
  async update(principal: Principal, id: number, patch: PatchInput) {
    await requireLinkManager(this.db, principal, id, this.clock.now());
    const now = this.clock.now();
    const expiresAt = patch.expiresAt === null ? null : this.futureInstant(patch.expiresAt, now);
    const passwordHash =
      patch.password === undefined || patch.password === null
        ? patch.password
        : await this.passwords.hash(patch.password);
    return this.db.transaction(async (tx) => {
      const link = await repo.lockLink(tx, id);
      if (!link) throw errors.notFound('share link');
      if (link.revokedAt !== null) throw errors.linkRevoked();
      if (patch.allowStems !== undefined) await checkAllowedStems(tx, link, patch.allowStems);
      await repo.updateLink(tx, id, {
        ...(patch.title === undefined ? {} : { title: patch.title }),
        ...(patch.message === undefined ? {} : { message: patch.message }),
        ...(expiresAt === undefined ? {} : { expiresAt }),
        ...(passwordHash === undefined ? {} : { passwordHash, passwordVersion: link.passwordVersion + 1 }),
        ...(patch.allowDownload === undefined ? {} : { allowDownload: patch.allowDownload }),
        ...(patch.allowStems === undefined ? {} : { allowStems: patch.allowStems }),
        ...(patch.allowComments === undefined ? {} : { allowComments: patch.allowComments }),
        updatedAt: now,
      });
      return this.view(tx, id);
    });
  }

  /** Revokes a link: every way in stops opening at once. Revoking again changes nothing. */
  async revoke(principal: Principal, id: number) {
    const link = await requireLinkManager(this.db, principal, id, this.clock.now());
    await repo.revokeLinks(this.db, repo.linkIs(link.id), this.clock.now());
    return this.view(this.db, id);
  }

  /** Adds a recipient (a way in of their own) and mails them its URL; an address already there is 409. */
  async addRecipient(principal: Principal, id: number, email: string) {
    const managed = await requireLinkManager(this.db, principal, id, this.clock.now());
    const address = normaliseEmail(email);
    const now = this.clock.now();
    return withMailBudget(this.limits, managed.teamId, 1, () =>
      this.db.transaction(async (tx) => {
        // Locked, so two additions of one address cannot both pass the check.
        const link = await repo.lockLink(tx, id);
        if (!link) throw errors.notFound('share link');
        if (link.revokedAt !== null) throw errors.linkRevoked();
        if (await repo.findRecipientByEmail(tx, id, address))
          throw errors.conflict('This address is already a recipient of the link');
        const [way] = await repo.insertWaysIn(tx, [
          { linkId: id, email: address, publicId: this.addresses.newPublicId(), createdAt: now },
        ]);
        await this.mail(tx, link, await targetPhrase(tx, link), [way!]);
        return recipientView(this.addresses, way!);
      }),
    );
  }

  /** Revokes one recipient's way in; its counts stay in the link's stats. */
  async removeRecipient(principal: Principal, id: number, recipientId: number): Promise<void> {
    await requireLinkManager(this.db, principal, id, this.clock.now());
    if (!(await repo.revokeRecipient(this.db, id, recipientId, this.clock.now())))
      throw errors.notFound('recipient');
  }

  /** What guests did through a link: totals, each way in's counts, and the events, newest first. */
  async activity(principal: Principal, id: number, query: ActivityInput) {
    await requireLinkManager(this.db, principal, id, this.clock.now());
    const limit = query.limit ?? 50;
    const before = decodeIdCursor(query.cursor);
    const filters = { recipientId: query.recipientId, kind: query.kind };
    const rows = await repo.listActivity(this.db, id, filters, { limit, before });
    const page = toPage(rows, limit, (last) => last.id);
    const ways = await repo.waysInOf(this.db, [id]);
    return {
      totals: sumStats(ways),
      recipients: ways.map((way) => ({ id: way.id, email: way.email, stats: statsOf(way) })),
      items: page.items.map((row) => ({
        id: row.id,
        kind: row.kind,
        recipientId: row.recipientId,
        recipientEmail: row.recipientEmail,
        versionId: row.versionId,
        stemId: row.stemId,
        fileId: row.fileId,
        seconds: row.seconds,
        at: row.at,
      })),
      nextCursor: page.nextCursor,
    };
  }

  private async view(db: Db, id: number) {
    const link = await repo.findLink(db, id, this.clock.now());
    if (!link) throw errors.notFound('share link');
    return shareLinkView(this.addresses, link, await repo.waysInOf(db, [id]));
  }

  private async mail(tx: Db, link: repo.ShareLinkRow, what: string, ways: readonly repo.WayInRow[]) {
    if (ways.length === 0) return;
    const names = await sharerNames(tx, link.teamId, link.createdBy);
    await mailRecipients(
      tx,
      this.mailer,
      {
        ...names,
        what,
        title: link.title,
        message: link.message,
        expiresAt: link.expiresAt,
        hasPassword: link.passwordHash !== null,
      },
      ways.map((way) => ({ email: way.email!, url: this.addresses.urlOf(way) })),
    );
  }

  /** An `expiresAt` of a request as an instant, which must lie ahead (400 otherwise). */
  private futureInstant(value: string | undefined, now: Date): Date | null | undefined {
    if (value === undefined) return undefined;
    const at = new Date(value);
    if (at <= now) throw errors.validation([{ path: '/body/expiresAt', message: 'must be in the future' }]);
    return at;
  }
}

/** The recipients' addresses, normalised; the same address twice is 400. */
function distinctRecipients(emails: readonly string[]): string[] {
  const seen = new Map<string, number>();
  emails.forEach((email, i) => {
    const address = normaliseEmail(email);
    if (seen.has(address))
      throw errors.validation([
        { path: `/body/recipients/${i}`, message: `repeats the address of recipient ${seen.get(address)}` },
      ]);
    seen.set(address, i);
  });
  return [...seen.keys()];
}
