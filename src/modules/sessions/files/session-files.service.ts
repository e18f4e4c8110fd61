import type { Db } from '../../../db/client.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { errors } from '../../../shared/errors.ts';
import { fileLinks, storedFileView, ticketView } from '../../files/file-view.ts';
import type { FileRow } from '../../files/files.repository.ts';
import type { FilesService } from '../../files/files.service.ts';
import { resolveUploadType } from '../../files/media-type.ts';
import { findOwnedUpload, registerOwnedUpload, removeOwnedUpload } from '../../files/owned-uploads.ts';
import { requireSession } from '../session-access.ts';
import type { SessionEvents } from '../session-events.ts';
import { sessionFilesOwner } from '../session-owners.ts';

type Page = { limit: number; cursor?: string | undefined };

/**
 * Files shared in a session, uploaded in two steps (an upload URL, then `added`) into the team's storage,
 * under its quota. Members of the team upload and delete; they and accepted participants read.
 */
export class SessionFilesService {
  constructor(
    private readonly db: Db,
    private readonly files: FilesService,
    private readonly events: SessionEvents,
  ) {}

  private async view(file: FileRow, sessionId: number, withPeaks: boolean) {
    return { ...(await storedFileView(this.files, file, withPeaks)), sessionId };
  }

  async list(principal: Principal, sessionId: number, page: Page) {
    const { session } = await requireSession(this.db, principal, sessionId, 'guest');
    return this.files.pageOfOwner(session.teamId, sessionFilesOwner(sessionId), page, (file) =>
      this.view(file, sessionId, false),
    );
  }

  async create(
    principal: Principal,
    sessionId: number,
    input: { fileName: string; fileSize: number; mediaType?: string | undefined },
  ) {
    const { session, userId } = await requireSession(this.db, principal, sessionId, 'member');
    const fileName = input.fileName.trim();
    const { kind, contentType } = resolveUploadType(fileName, input.mediaType);
    const ticket = await this.files.createUploadUrl({
      teamId: session.teamId,
      kind,
      fileName,
      contentType,
      size: input.fileSize,
      owner: sessionFilesOwner(sessionId),
      createdBy: userId,
    });
    return { ...ticketView(ticket), sessionId };
  }

  /** Registers the uploaded bytes; calling it again once registered answers the file. */
  async added(principal: Principal, sessionId: number, mediaId: number) {
    const { session, userId } = await requireSession(this.db, principal, sessionId, 'member');
    const file = await registerOwnedUpload(this.files, {
      teamId: session.teamId,
      owner: sessionFilesOwner(sessionId),
      fileId: mediaId,
      createdBy: userId,
      also: (tx) => this.events.record(tx, principal, session, 'file.added', { fileId: mediaId }),
    });
    if (!file) throw errors.notFound('file');
    return this.view(file, sessionId, true);
  }

  /** Signed links to a registered file of the session. */
  async url(principal: Principal, sessionId: number, mediaId: number) {
    const { session } = await requireSession(this.db, principal, sessionId, 'guest');
    const found = await findOwnedUpload(this.files, session.teamId, sessionFilesOwner(sessionId), mediaId);
    if (!found?.file) throw errors.notFound('file');
    return fileLinks(this.files, found.file);
  }

  /** Deletes a file (its bytes too), registered or still pending. */
  async remove(principal: Principal, sessionId: number, mediaId: number): Promise<void> {
    const { session } = await requireSession(this.db, principal, sessionId, 'member');
    const removed = await removeOwnedUpload(
      this.files,
      session.teamId,
      sessionFilesOwner(sessionId),
      mediaId,
      (tx) => this.events.record(tx, principal, session, 'file.deleted', { fileId: mediaId }),
    );
    if (!removed) throw errors.notFound('file');
  }
}
