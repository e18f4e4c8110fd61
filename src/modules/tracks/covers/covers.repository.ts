import { tracks } from '../../../db/schema/index.ts';
import { coverSlot } from '../../files/cover-slot.ts';
import { TRACK_FILE_OWNERS } from '../track-files.ts';

export const { lockCoverFile, setCurrentCover, setCoverIfNone, currentCoverId } = coverSlot(
  tracks,
  TRACK_FILE_OWNERS.cover,
);
