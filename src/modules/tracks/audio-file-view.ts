import type { DownloadMark } from '../files/download-marks.ts';
import { fileLinks, peaksView } from '../files/file-view.ts';
import type { FileRow } from '../files/files.repository.ts';
import type { FilesService } from '../files/files.service.ts';

/** An audio file of the tracks area without its links: name, facts and waveform (the peaks only `withPeaks`). */
export function audioFileFacts(file: FileRow, withPeaks: boolean) {
  return {
    fileId: file.id,
    fileName: file.originalName,
    contentType: file.contentType,
    size: file.size,
    facts: file.audio,
    peaks: peaksView(file, withPeaks),
  };
}

/**
 * An audio file of the tracks area as answers show it (see `audioFileFields`): facts, waveform (the peaks
 * themselves only `withPeaks`) and signed links, the stream link carrying `mark` when given, both `guard`.
 */
export async function audioFileView(
  files: FilesService,
  file: FileRow,
  options: { withPeaks: boolean; mark?: DownloadMark; guard?: DownloadMark },
) {
  const { withPeaks, ...marks } = options;
  return { ...audioFileFacts(file, withPeaks), ...(await fileLinks(files, file, marks)) };
}
