import type { FileOwner } from '../files/files.service.ts';
import { VERSION_AUDIO_OWNER } from './versions/versions.repository.ts';

/** What a version's stem files are owned by in the files area (the stem rows point at their file). */
export const VERSION_STEM_OWNER = 'version_stem';
/** What a version's additional audio files (alternate bounces, instrumentals, ...) are owned by. */
export const VERSION_FILE_OWNER = 'version_file';

/** The files-area owner of a version's audio. */
export const audioOwner = (versionId: number): FileOwner => ({ type: VERSION_AUDIO_OWNER, id: versionId });
/** The files-area owner of all stem files of a version. */
export const stemsOwner = (versionId: number): FileOwner => ({ type: VERSION_STEM_OWNER, id: versionId });
/** The files-area owner of a version's additional files. */
export const extraFilesOwner = (versionId: number): FileOwner => ({
  type: VERSION_FILE_OWNER,
  id: versionId,
});
