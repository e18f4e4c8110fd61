import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import type { Clock } from '../../shared/clock.ts';
import { errors } from '../../shared/errors.ts';
import { MANAGERS, requireTeam, sessionUserId } from '../../shared/tenancy.ts';
import { fileLinks, ticketTransfer } from '../files/file-view.ts';
import type { FileRow } from '../files/files.repository.ts';
import type { FilesService } from '../files/files.service.ts';
import * as repo from './banner.repository.ts';

export const TEAM_BANNER = 'team_banner';

const ownerOf = (teamId: number) => ({ type: TEAM_BANNER, id: teamId });

/** The team banner: an image uploaded in two steps (URL, then PUT the key); setting one deletes the last. */
export class TeamBannerService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly files: FilesService,
  ) {}

  private async view(file: FileRow) {
    return {
      teamId: file.teamId,
      fileId: file.id,
      fileName: file.originalName,
      contentType: file.contentType,
      size: file.size,
      ...(await fileLinks(this.files, file)),
      updatedAt: file.createdAt,
    };
  }

  async createUploadUrl(principal: Principal, teamId: number, input: { fileName: string }) {
    const userId = sessionUserId(principal);
    await requireTeam(this.db, principal, teamId, MANAGERS);
    const ticket = await this.files.createUploadUrl({
      teamId,
      kind: 'image',
      fileName: input.fileName.trim(),
      owner: ownerOf(teamId),
      createdBy: userId,
    });
    return { ...ticketTransfer(ticket), fileKey: ticket.key };
  }

  /** Makes the uploaded image the banner; the previous banner and its bytes are deleted. */
  async set(principal: Principal, teamId: number, fileKey: string) {
    const userId = sessionUserId(principal);
    await requireTeam(this.db, principal, teamId, MANAGERS);
    const prepared = await this.files.prepareRegistration({
      teamId,
      key: fileKey,
      owner: ownerOf(teamId),
      kind: 'image',
      createdBy: userId,
    });
    const file = await this.files.commitRegistration(prepared, async (tx) => {
      await repo.lockBanner(tx, teamId);
      const registered = await this.files.completeRegistration(tx, prepared);
      await this.files.deleteOfOwner(teamId, ownerOf(teamId), { tx, keepId: registered.id });
      await repo.setBannerKey(tx, teamId, registered.key, this.clock.now());
      return registered;
    });
    return this.view(file);
  }

  async get(principal: Principal, teamId: number) {
    await requireTeam(this.db, principal, teamId);
    const key = await repo.findBannerKey(this.db, teamId);
    const file = key ? await this.files.getByKey(teamId, key) : undefined;
    if (!file) throw errors.notFound('banner');
    return this.view(file);
  }

  async remove(principal: Principal, teamId: number): Promise<void> {
    await requireTeam(this.db, principal, teamId, MANAGERS);
    const removed = await this.files.transaction(async (tx) => {
      const team = await repo.lockBanner(tx, teamId);
      if (!team?.bannerKey) return false;
      await this.files.deleteOfOwner(teamId, ownerOf(teamId), { tx });
      await repo.setBannerKey(tx, teamId, null, this.clock.now());
      return true;
    });
    if (!removed) throw errors.notFound('banner');
  }
}
