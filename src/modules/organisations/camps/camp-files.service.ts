import type { Db } from '../../../db/client.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { errors } from '../../../shared/errors.ts';
import { decodeIdCursor, toPage } from '../../../shared/pagination.ts';
import { MANAGERS, requireTeam } from '../../../shared/tenancy.ts';
import { storedFileView, ticketView } from '../../files/file-view.ts';
import type { FileRow } from '../../files/files.repository.ts';
import type { FilesService } from '../../files/files.service.ts';
import { resolveMediaType } from '../../files/media-type.ts';
import { registerOwnedUpload, removeOwnedUpload } from '../../files/owned-uploads.ts';
import { managesOrganisation } from '../access.ts';
import { organisationTeamEvent } from '../organisation-events.ts';
import { teamRoleOf } from '../organisations.repository.ts';
import { CAMP_FILE } from './camp-files.cleanup.ts';
import * as repo from './camp-files.repository.ts';
import { requireCampRef } from './camp-ref.ts';

type Page = { limit: number; cursor?: string | undefined };

const ownerOf = (campId: number) => ({ type: CAMP_FILE, id: campId });

/**
 * The shared files of a camp, uploaded in two steps (URL, PUT, `added`) by anyone who reads the camp. A file
 * is stored on a team of the uploader's (its quota pays); the uploader, that team's owners and admins, and
 * the organisation's owners and admins delete it.
 */
export class CampFilesService {
  constructor(
    private readonly db: Db,
    private readonly files: FilesService,
    private readonly events: EventLog,
  ) {}

  private async view(file: FileRow, campId: number, uploadedBy: string | null) {
    return { ...(await storedFileView(this.files, file, false)), campId, teamId: file.teamId, uploadedBy };
  }

  async list(principal: Principal, campRef: string, page: Page) {
    const { camp } = await requireCampRef(this.db, principal, campRef);
    const rows = await repo.listCampFiles(this.db, camp.id, page.limit + 1, decodeIdCursor(page.cursor));
    const result = toPage(rows, page.limit, (last) => last.file.id);
    return {
      items: await Promise.all(result.items.map((row) => this.view(row.file, camp.id, row.uploadedBy))),
      nextCursor: result.nextCursor,
    };
  }

  async create(
    principal: Principal,
    campRef: string,
    input: { teamId: number; fileName: string; fileSize: number; mediaType: string },
  ) {
    const { camp, access } = await requireCampRef(this.db, principal, campRef);
    await requireTeam(this.db, principal, input.teamId);
    const { kind, contentType } = resolveMediaType(input.mediaType);
    const ticket = await this.files.createUploadUrl({
      teamId: input.teamId,
      kind,
      fileName: input.fileName.trim(),
      contentType,
      size: input.fileSize,
      owner: ownerOf(camp.id),
      createdBy: access.userId,
    });
    return { ...ticketView(ticket), campId: camp.id, teamId: input.teamId, uploadedBy: access.userId };
  }

  /** Registers the uploaded bytes (by a member of the file's team); again once registered answers the file. */
  async added(principal: Principal, campRef: string, fileId: number) {
    const { camp, access } = await requireCampRef(this.db, principal, campRef);
    const located = await repo.locateCampFile(this.db, camp.id, fileId);
    if (!located) throw errors.notFound('file');
    await requireTeam(this.db, principal, located.teamId).catch(() => {
      throw errors.notFound('file');
    });
    const file = await registerOwnedUpload(this.files, {
      teamId: located.teamId,
      owner: ownerOf(camp.id),
      fileId,
      createdBy: access.userId,
      also: async (tx, registered) => {
        await repo.insertCampFile(tx, {
          fileId: registered.id,
          campId: camp.id,
          teamId: registered.teamId,
          createdBy: located.uploadedBy,
          createdAt: registered.createdAt,
        });
        await this.events.record(
          tx,
          organisationTeamEvent(principal, registered.teamId, camp.organisationId, {
            type: 'camp.file_added',
            subject: { type: 'file', id: registered.id },
            payload: { campId: camp.id },
          }),
        );
      },
    });
    if (!file) throw errors.notFound('file');
    return this.view(file, camp.id, located.uploadedBy);
  }

  async remove(principal: Principal, campRef: string, fileId: number): Promise<void> {
    const { camp, access } = await requireCampRef(this.db, principal, campRef);
    const located = await repo.locateCampFile(this.db, camp.id, fileId);
    if (!located) throw errors.notFound('file');
    if (located.uploadedBy !== access.userId && !managesOrganisation(access)) {
      const role = await teamRoleOf(this.db, located.teamId, access.userId);
      if (!role || !MANAGERS.includes(role))
        throw errors.forbidden(
          'Only the uploader, owners and admins of its team or of the organisation delete a camp file',
        );
    }
    const removed = await removeOwnedUpload(
      this.files,
      located.teamId,
      ownerOf(camp.id),
      fileId,
      async (tx) => {
        await this.events.record(
          tx,
          organisationTeamEvent(principal, located.teamId, camp.organisationId, {
            type: 'camp.file_deleted',
            subject: { type: 'file', id: fileId },
            payload: { campId: camp.id },
          }),
        );
      },
    );
    if (!removed) throw errors.notFound('file');
  }
}
