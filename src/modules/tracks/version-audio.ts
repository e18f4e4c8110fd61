import type { FileOwner } from '../files/files.service.ts';
import { VERSION_AUDIO_OWNER } from './versions.repository.ts';

/** The files-area owner of a version's audio. */
export const audioOwner = (versionId: number): FileOwner => ({ type: VERSION_AUDIO_OWNER, id: versionId });
