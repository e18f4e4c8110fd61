import type { FilesService } from '../files/files.service.ts';
import { coverView } from '../tracks/covers/covers.service.ts';
import type { TourRow } from './tours.repository.ts';

const PUBLIC_COVER_PATH = '/api/v1/public/tour-covers/';

/** The URL anyone may fetch a public cover at, from the service's public origin and the cover's token. */
export const publicCoverUrl = (baseUrl: string, token: string) => `${baseUrl}${PUBLIC_COVER_PATH}${token}`;

/** A tour as the API answers it: its current cover with a fresh signed URL and, when public, its public URL. */
export async function tourView(files: Pick<FilesService, 'downloadUrl'>, baseUrl: string, row: TourRow) {
  const { coverKey, coverName, coverType, coverToken, coverFileId, ...tour } = row;
  const cover =
    coverFileId !== null && coverKey !== null && coverName !== null && coverType !== null
      ? {
          ...(await coverView(files, coverFileId, {
            key: coverKey,
            originalName: coverName,
            contentType: coverType,
          })),
          isPublic: coverToken !== null,
          publicUrl: coverToken === null ? null : publicCoverUrl(baseUrl, coverToken),
        }
      : null;
  return { ...tour, cover };
}
