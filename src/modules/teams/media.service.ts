import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import { errors } from '../../shared/errors.ts';
import { MANAGERS, requireTeam, sessionUserId } from '../../shared/tenancy.ts';
import { pendingFileView, storedFileView, ticketView } from '../files/file-view.ts';
import type { FileRow } from '../files/files.repository.ts';
import type { FilesService } from '../files/files.service.ts';
import { resolveMediaType } from '../files/media-type.ts';
import { findOwnedUpload, registerOwnedUpload, removeOwnedUpload } from '../files/owned-uploads.ts';
import type { PageInput } from './cursors.ts';

export const TEAM_MEDIA = 'team_media';

const ownerOf = (teamId: number) => ({ type: TEAM_MEDIA, id: teamId });

/**
 * A team's media library: members upload (ask for a URL, PUT the bytes, confirm with `added`) and read;
 * owners and admins delete. A media id is the id of its file, from the upload URL on.
 */
export class TeamMediaService {
  constructor(
    private readonly db: Db,
    private readonly files: FilesService,
  ) {}

  private async view(file: FileRow, withPeaks: boolean) {
    return { ...(await storedFileView(this.files, file, withPeaks)), teamId: file.teamId };
  }

  async list(principal: Principal, teamId: number, page: PageInput) {
    await requireTeam(this.db, principal, teamId);
    return this.files.pageOfOwner(teamId, ownerOf(teamId), page, (file) => this.view(file, false));
  }

  async create(
    principal: Principal,
    teamId: number,
    input: { fileName: string; fileSize: number; mediaType: string },
  ) {
    const userId = sessionUserId(principal);
    await requireTeam(this.db, principal, teamId);
    const { kind, contentType } = resolveMediaType(input.mediaType);
    const ticket = await this.files.createUploadUrl({
      teamId,
      kind,
      fileName: input.fileName.trim(),
      contentType,
      size: input.fileSize,
      owner: ownerOf(teamId),
      createdBy: userId,
    });
    return { ...ticketView(ticket), teamId };
  }

  /** Registers the uploaded bytes of a pending media; calling it again once registered answers the media. */
  async added(principal: Principal, teamId: number, mediaId: number) {
    const userId = sessionUserId(principal);
    await requireTeam(this.db, principal, teamId);
    const file = await registerOwnedUpload(this.files, {
      teamId,
      owner: ownerOf(teamId),
      fileId: mediaId,
      createdBy: userId,
    });
    if (!file) throw errors.notFound('media');
    return this.view(file, true);
  }

  async get(principal: Principal, teamId: number, mediaId: number) {
    await requireTeam(this.db, principal, teamId);
    const found = await findOwnedUpload(this.files, teamId, ownerOf(teamId), mediaId);
    if (found?.file) return this.view(found.file, true);
    if (found?.pending) return { ...pendingFileView(found.pending), teamId };
    throw errors.notFound('media');
  }

  /** Deletes a media (its bytes too), registered or still pending. */
  async remove(principal: Principal, teamId: number, mediaId: number): Promise<void> {
    await requireTeam(this.db, principal, teamId, MANAGERS);
    if (!(await removeOwnedUpload(this.files, teamId, ownerOf(teamId), mediaId))) {
      throw errors.notFound('media');
    }
  }
}
