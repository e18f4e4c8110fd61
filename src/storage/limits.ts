import { mediaTypeOf } from './content-type.ts';

export type FileKind = 'audio' | 'image' | 'video' | 'document';

export type FileKindLimit = {
  maxBytes: number;
  /** Media types without parameters, lower case. */
  contentTypes: readonly string[];
};

export type FileLimits = Readonly<Record<FileKind, FileKindLimit>>;

export const FILE_KINDS: readonly FileKind[] = ['audio', 'image', 'video', 'document'];

const MiB = 1024 * 1024;

export const defaultFileLimits: FileLimits = {
  audio: {
    maxBytes: 1024 * MiB,
    contentTypes: [
      'audio/wav',
      'audio/x-wav',
      'audio/wave',
      'audio/vnd.wave',
      'audio/flac',
      'audio/x-flac',
      'audio/mpeg',
      'audio/mp3',
      'audio/aac',
      'audio/mp4',
      'audio/x-m4a',
      'audio/ogg',
      'audio/opus',
      'audio/aiff',
      'audio/x-aiff',
      'audio/webm',
    ],
  },
  image: {
    maxBytes: 20 * MiB,
    contentTypes: ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif'],
  },
  video: {
    maxBytes: 4096 * MiB,
    contentTypes: [
      'video/mp4',
      'video/quicktime',
      'video/webm',
      'video/x-m4v',
      'video/x-matroska',
      'video/mpeg',
      'video/ogg',
    ],
  },
  document: {
    maxBytes: 50 * MiB,
    contentTypes: [
      'application/pdf',
      'text/plain',
      'text/markdown',
      'text/csv',
      'application/msword',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.ms-excel',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.oasis.opendocument.text',
      'application/vnd.oasis.opendocument.spreadsheet',
      'application/vnd.recordare.musicxml+xml',
      'application/vnd.recordare.musicxml',
    ],
  },
};

export type FileCheck =
  | { ok: true }
  | { ok: false; status: 400; code: 'unsupported_file_type'; message: string }
  | { ok: false; status: 413; code: 'payload_too_large'; message: string };

/** The limits with each kind's maximum size replaced where `maxBytes` names one. */
export function withMaxBytes(
  limits: FileLimits,
  maxBytes: Partial<Record<FileKind, number | undefined>>,
): FileLimits {
  const result: Record<FileKind, FileKindLimit> = { ...limits };
  for (const kind of FILE_KINDS) {
    const max = maxBytes[kind];
    if (max !== undefined) result[kind] = { ...limits[kind], maxBytes: max };
  }
  return result;
}

function humanBytes(bytes: number): string {
  if (bytes >= 1024 * MiB && bytes % (1024 * MiB) === 0) return `${bytes / (1024 * MiB)} GiB`;
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  return `${bytes} bytes`;
}

/** Whether a file of this kind, content type (parameters ignored) and size may be stored. */
export function checkFileLimits(
  file: { kind: FileKind; contentType: string; size: number },
  limits: FileLimits = defaultFileLimits,
): FileCheck {
  if (!Number.isSafeInteger(file.size) || file.size < 0)
    throw new RangeError('size must be a non-negative integer');
  const limit = limits[file.kind];
  const type = mediaTypeOf(file.contentType);
  if (!limit.contentTypes.includes(type)) {
    return {
      ok: false,
      status: 400,
      code: 'unsupported_file_type',
      message: `${type || 'A missing content type'} is not accepted for ${file.kind} files; accepted: ${limit.contentTypes.join(', ')}`,
    };
  }
  if (file.size > limit.maxBytes) {
    return {
      ok: false,
      status: 413,
      code: 'payload_too_large',
      message: `${file.kind} files may be at most ${humanBytes(limit.maxBytes)}`,
    };
  }
  return { ok: true };
}
