import type { Db } from '../../../db/client.ts';
import { fileLinks } from '../../files/file-view.ts';
import type { FilesService } from '../../files/files.service.ts';
import { TRACK_FILE_OWNERS } from '../track-files.ts';

export type AttachmentView = {
  id: number;
  fileName: string;
  contentType: string;
  size: number;
  url: string;
  downloadUrl: string;
  urlExpiresAt: Date;
};

/** The attachments of these comments with signed links, by comment id: one query for a whole page. */
export async function attachmentsOf(
  db: Db,
  files: FilesService,
  teamId: number,
  commentIds: number[],
): Promise<Map<number, AttachmentView[]>> {
  const rows = await files.listOfOwners(teamId, TRACK_FILE_OWNERS.commentAttachment, commentIds, { tx: db });
  const byComment = new Map<number, AttachmentView[]>();
  const views = await Promise.all(
    rows.map(async (file) => ({
      commentId: Number(file.ownerId),
      view: {
        id: file.id,
        fileName: file.originalName,
        contentType: file.contentType,
        size: file.size,
        ...(await fileLinks(files, file)),
      },
    })),
  );
  for (const { commentId, view } of views) {
    const list = byComment.get(commentId) ?? [];
    list.push(view);
    byComment.set(commentId, list);
  }
  return byComment;
}
