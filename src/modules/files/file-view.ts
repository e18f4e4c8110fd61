import type { FileRow } from './files.repository.ts';
import type { FilesService } from './files.service.ts';

/** The waveform of a file as the API shows it; the peaks themselves only with `withData`. */
export function peaksView(file: FileRow, withData: boolean) {
  const base = { status: file.peaksStatus };
  if (file.peaksStatus === 'failed') {
    return {
      ...base,
      ...(file.peaksFailureReason ? { reason: file.peaksFailureReason } : {}),
      ...(file.peaksFailureMessage ? { message: file.peaksFailureMessage } : {}),
    };
  }
  if (file.peaksStatus !== 'ready' || !file.peaks) return base;
  const { bucketCount, durationSeconds, min, max } = file.peaks;
  return withData
    ? { ...base, bucketCount, durationSeconds, min, max }
    : { ...base, bucketCount, durationSeconds };
}

/** Signed links to a file: `url` to show or play it in place, `downloadUrl` to save it under its name. */
export async function fileLinks(files: FilesService, file: FileRow) {
  const [inline, attachment] = await Promise.all([
    files.downloadUrl(file, { disposition: 'inline' }),
    files.downloadUrl(file, { disposition: 'attachment' }),
  ]);
  return { url: inline.url, downloadUrl: attachment.url, urlExpiresAt: inline.expiresAt };
}
