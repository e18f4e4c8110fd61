import type { DownloadMark } from './download-marks.ts';
import type { FileRow, PendingUploadRow } from './files.repository.ts';
import type { FilesService, UploadTicket } from './files.service.ts';

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

/**
 * Signed links to a file: `url` to show or play it in place, `downloadUrl` to save it under its name. A `mark`
 * goes on `url` only: playing is what an area counts, not saving. A `guard` mark goes on both, for an area
 * whose guard decides on every fetch whether the file may still be served.
 */
export async function fileLinks(
  files: FilesService,
  file: FileRow,
  options: { mark?: DownloadMark; guard?: DownloadMark } = {},
) {
  const [inline, attachment] = await Promise.all([
    files.downloadUrl(file, { disposition: 'inline', mark: options.mark ?? options.guard }),
    files.downloadUrl(file, { disposition: 'attachment', mark: options.guard }),
  ]);
  return { url: inline.url, downloadUrl: attachment.url, urlExpiresAt: inline.expiresAt };
}

/** A registered file as an item of a file library (team media, track covers, track media). */
export async function storedFileView(files: FilesService, file: FileRow, withPeaks: boolean) {
  return {
    id: file.id,
    status: 'ready' as const,
    fileName: file.originalName,
    fileSize: file.size,
    mediaType: file.contentType,
    kind: file.kind,
    createdAt: file.createdAt,
    ...(await fileLinks(files, file)),
    audio: file.audio,
    peaks: peaksView(file, withPeaks),
  };
}

/** An upload of a file library still waiting for its bytes to be registered. */
export function pendingFileView(row: PendingUploadRow) {
  return {
    id: row.id,
    status: 'pending' as const,
    fileName: row.fileName,
    fileSize: row.declaredSize,
    mediaType: row.contentType,
    kind: row.kind,
    createdAt: row.createdAt,
  };
}

/** How a ticket's bytes are sent (the signed PUT, or resumable pieces), as every upload answer shows it. */
export function ticketTransfer(ticket: UploadTicket) {
  const { uploadUrl, method, headers, expiresAt, resumable } = ticket;
  return { uploadUrl, method, headers, expiresAt, resumable };
}

/** A new upload of a file library with its upload URL; the key is answered as `fileKey`. */
export function ticketView(ticket: UploadTicket) {
  return {
    id: ticket.fileId,
    status: 'pending' as const,
    fileName: ticket.fileName,
    fileSize: ticket.size,
    mediaType: ticket.contentType,
    kind: ticket.kind,
    createdAt: ticket.createdAt,
    ...ticketTransfer(ticket),
    fileKey: ticket.key,
  };
}
