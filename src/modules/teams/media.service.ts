import type { Db } from '../../db/client.ts';
import type { Principal } from '../../plugins/auth.ts';
import { errors } from '../../shared/errors.ts';
import { decodeIdCursor, toPage } from '../../shared/pagination.ts';
import { MANAGERS, requireTeam, sessionUserId } from '../../shared/tenancy.ts';
import { mediaTypeOf } from '../../storage/content-type.ts';
import { FILE_KINDS, type FileKind } from '../../storage/limits.ts';
import { fileLinks, peaksView } from '../files/file-view.ts';
import type { FileRow, PendingUploadRow } from '../files/files.repository.ts';
import { type FilesService, isAppError } from '../files/files.service.ts';
import type { PageInput } from './cursors.ts';

export const TEAM_MEDIA = 'team_media';

const ownerOf = (teamId: number) => ({ type: TEAM_MEDIA, id: teamId });

/** `image/png` -> image; `audio`, `image`, `document` name the kind and leave the type to the file name. */
function resolveMediaType(mediaType: string): { kind: FileKind; contentType?: string } {
  const value = mediaType.trim().toLowerCase();
  if ((FILE_KINDS as readonly string[]).includes(value)) return { kind: value as FileKind };
  const contentType = mediaTypeOf(value);
  if (!/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(contentType)) {
    throw errors.validation([
      {
        path: '/body/mediaType',
        message: 'must be a media type such as image/png, or audio, image, document',
      },
    ]);
  }
  const top = contentType.split('/')[0];
  return { kind: top === 'audio' ? 'audio' : top === 'image' ? 'image' : 'document', contentType };
}

function pendingView(row: PendingUploadRow) {
  return {
    id: row.id,
    teamId: row.teamId,
    status: 'pending' as const,
    fileName: row.fileName,
    fileSize: row.declaredSize,
    mediaType: row.contentType,
    kind: row.kind,
    createdAt: row.createdAt,
  };
}

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
    return {
      id: file.id,
      teamId: file.teamId,
      status: 'ready' as const,
      fileName: file.originalName,
      fileSize: file.size,
      mediaType: file.contentType,
      kind: file.kind,
      createdAt: file.createdAt,
      ...(await fileLinks(this.files, file)),
      audio: file.audio,
      peaks: peaksView(file, withPeaks),
    };
  }

  private isMedia(row: { ownerType: string; ownerId: string; teamId: number } | undefined) {
    return row !== undefined && row.ownerType === TEAM_MEDIA && row.ownerId === String(row.teamId);
  }

  async list(principal: Principal, teamId: number, page: PageInput) {
    await requireTeam(this.db, principal, teamId);
    const rows = await this.files.listOfOwner(teamId, ownerOf(teamId), {
      limit: page.limit + 1,
      before: decodeIdCursor(page.cursor),
    });
    const result = toPage(rows, page.limit, (last) => last.id);
    return {
      items: await Promise.all(result.items.map((file) => this.view(file, false))),
      nextCursor: result.nextCursor,
    };
  }

  async create(
    principal: Principal,
    teamId: number,
    input: { fileName: string; fileSize: number; mediaType: string },
  ) {
    const userId = sessionUserId(principal);
    await requireTeam(this.db, principal, teamId);
    const { kind, contentType } = resolveMediaType(input.mediaType);
    const fileName = input.fileName.trim();
    const ticket = await this.files.createUploadUrl({
      teamId,
      kind,
      fileName,
      contentType,
      size: input.fileSize,
      owner: ownerOf(teamId),
      createdBy: userId,
    });
    return {
      id: ticket.fileId,
      teamId,
      status: 'pending' as const,
      fileName: ticket.fileName,
      fileSize: ticket.size,
      mediaType: ticket.contentType,
      kind: ticket.kind,
      createdAt: ticket.createdAt,
      uploadUrl: ticket.uploadUrl,
      method: ticket.method,
      headers: ticket.headers,
      fileKey: ticket.key,
      expiresAt: ticket.expiresAt,
    };
  }

  /** Registers the uploaded bytes of a pending media; calling it again once registered answers the media. */
  async added(principal: Principal, teamId: number, mediaId: number) {
    const userId = sessionUserId(principal);
    await requireTeam(this.db, principal, teamId);
    const pending = await this.files.getPending(teamId, mediaId);
    if (!this.isMedia(pending)) return this.get(principal, teamId, mediaId);
    try {
      const file = await this.files.register({
        teamId,
        key: pending!.key,
        owner: ownerOf(teamId),
        createdBy: userId,
      });
      return this.view(file, true);
    } catch (error) {
      // Another call registered it between our read and its own: answer the media like a repeated call.
      if (!isAppError(error, 'not_found') && !isAppError(error, 'upload_closed')) throw error;
      const file = await this.files.get(teamId, mediaId);
      if (this.isMedia(file)) return this.view(file!, true);
      throw error;
    }
  }

  async get(principal: Principal, teamId: number, mediaId: number) {
    await requireTeam(this.db, principal, teamId);
    const file = await this.files.get(teamId, mediaId);
    if (this.isMedia(file)) return this.view(file!, true);
    const pending = await this.files.getPending(teamId, mediaId);
    if (this.isMedia(pending)) return pendingView(pending!);
    throw errors.notFound('media');
  }

  /** Deletes a media (its bytes too), registered or still pending. */
  async remove(principal: Principal, teamId: number, mediaId: number): Promise<void> {
    await requireTeam(this.db, principal, teamId, MANAGERS);
    const file = await this.files.get(teamId, mediaId);
    if (this.isMedia(file) && (await this.files.delete(teamId, [mediaId])).length > 0) return;
    const pending = await this.files.getPending(teamId, mediaId);
    if (this.isMedia(pending) && (await this.files.discardPending(teamId, pending!.key))) return;
    throw errors.notFound('media');
  }
}
