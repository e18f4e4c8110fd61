import type { TestTeam } from '../../../test/helpers/context.ts';
import type { StorageTestContext } from '../../../test/helpers/storage.ts';
import { tinyPng, uploadTrackFile } from '../../../test/helpers/track-files.ts';

export type UploadedTourCover = { id: number; isCurrent: boolean; url: string; publicUrl: string | null };

/** Uploads and confirms a cover of the tour (a PNG of this grey level) as the team's owner; answers the cover. */
export async function uploadTourCover(ctx: StorageTestContext, team: TestTeam, tourId: number, grey = 128) {
  const bytes = tinyPng(grey);
  const { file } = await uploadTrackFile(
    ctx,
    team.owner.token,
    `/api/v1/tours/${tourId}/covers`,
    { fileName: `poster-${grey}.png`, fileSize: bytes.length },
    bytes,
  );
  return file as UploadedTourCover;
}
