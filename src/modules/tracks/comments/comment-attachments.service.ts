import type { Db } from '../../../db/client.ts';
import { actorOf } from '../../../events/actor.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { type ErrorDetail, errors } from '../../../shared/errors.ts';
import { extensionFor } from '../../../storage/content-type.ts';
import { ticketView } from '../../files/file-view.ts';
import { type FilesService, isAppError, type PreparedUpload } from '../../files/files.service.ts';
import { resolveMediaType, resolveUploadType } from '../../files/media-type.ts';
import { requireVersionForChange } from '../track-access.ts';
import { attachmentOwner, commentUploadOwner } from '../track-files.ts';
import type { CommentsService, NewComment } from './comments.service.ts';

// When the client names nothing, the upload is taken to be a screenshot: the most common attachment.
const DEFAULT_MEDIA_TYPE = 'image/png';

type UploadInput = {
  fileName?: string | undefined;
  fileSize?: number | undefined;
  mediaType?: string | undefined;
};

/** The name and type of an attachment upload from what the client sent, all of it optional. */
function attachmentFile(input: UploadInput) {
  if (input.fileName !== undefined) {
    const fileName = input.fileName.trim();
    return { fileName, ...resolveUploadType(fileName, input.mediaType) };
  }
  const type = resolveMediaType(input.mediaType ?? DEFAULT_MEDIA_TYPE);
  if (!type.contentType)
    throw errors.unsupportedFileType(
      `"${input.mediaType}" names a kind only: send a media type such as image/png, or a fileName`,
    );
  const extension = extensionFor(type.contentType);
  return { fileName: extension ? `attachment.${extension}` : 'attachment', ...type };
}

/**
 * Files attached to comments: uploaded first for the version (before the comment exists), then registered
 * as attachments of the comment written with them, in the same transaction.
 */
export class CommentAttachmentsService {
  constructor(
    private readonly db: Db,
    private readonly files: FilesService,
    private readonly comments: CommentsService,
  ) {}

  /** An upload URL for a file to attach to a comment of this version (any accepted audio, image, video, document). */
  async createUploadUrl(principal: Principal, trackId: number, versionId: number, input: UploadInput) {
    const { track } = await requireVersionForChange(this.db, principal, trackId, versionId, 'comment');
    const { fileName, kind, contentType } = attachmentFile(input);
    const ticket = await this.files.createUploadUrl({
      teamId: track.teamId,
      kind,
      fileName,
      contentType,
      size: input.fileSize,
      owner: commentUploadOwner(versionId),
      createdBy: actorOf(principal).actorUserId,
    });
    return { ...ticketView(ticket), versionId };
  }

  /** Writes the comment and registers every upload as its attachment, all or nothing. */
  async create(
    principal: Principal,
    trackId: number,
    versionId: number,
    input: NewComment & { attachments: string[] },
  ) {
    const access = await requireVersionForChange(this.db, principal, trackId, versionId, 'comment');
    const { attachments, ...comment } = input;
    await this.comments.checkNew(access.version, comment);
    const teamId = access.track.teamId;
    const prepared = await this.prepare(principal, teamId, versionId, attachments);
    const commentId = await this.files.commitRegistration(prepared, async (tx) => {
      const id = await this.comments.insert(tx, principal, access, comment, prepared.length);
      for (const upload of prepared)
        await this.files.completeRegistration(tx, upload, { owner: attachmentOwner(id) });
      return id;
    });
    return this.comments.viewOf(this.db, teamId, versionId, commentId);
  }

  /** Checks and stores the bytes of every upload; keys that are not uploads of this version are 400. */
  private async prepare(
    principal: Principal,
    teamId: number,
    versionId: number,
    keys: string[],
  ): Promise<PreparedUpload[]> {
    const results = await Promise.allSettled(
      keys.map((key) =>
        this.files.prepareRegistration({
          teamId,
          key,
          owner: commentUploadOwner(versionId),
          createdBy: actorOf(principal).actorUserId,
        }),
      ),
    );
    const unknown: ErrorDetail[] = [];
    for (const [index, result] of results.entries()) {
      if (result.status === 'fulfilled') continue;
      if (!isAppError(result.reason, 'not_found')) throw result.reason;
      unknown.push({
        path: `/body/attachments/${index}`,
        message: 'is not an upload of this version from POST .../comments/upload, or is attached already',
      });
    }
    if (unknown.length > 0) throw errors.validation(unknown);
    return results.map((r) => (r as PromiseFulfilledResult<PreparedUpload>).value);
  }
}
