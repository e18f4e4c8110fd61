import { PassThrough, pipeline, type Readable } from 'node:stream';
import type { IFileInfo, ITokenizer } from 'strtok3';
import { lazyImport } from '../shared/lazy-module.ts';

const strtok3 = lazyImport(() => import('strtok3'));

/**
 * Audio to read: a file path, bytes in memory, or a Node stream. A stream can be read once only: to get both
 * facts and peaks of one upload, pass a path (or read the blob twice).
 */
export type AudioSource = string | Uint8Array | Readable;

/** What the caller knows about the bytes; helps format detection and bitrate estimates of streams. */
export type AudioSourceHints = { contentType?: string; size?: number; fileName?: string };

function fileInfoFrom(hints: AudioSourceHints): IFileInfo {
  const info: IFileInfo = {};
  if (hints.contentType) info.mimeType = hints.contentType;
  if (hints.size !== undefined) info.size = hints.size;
  if (hints.fileName) info.path = hints.fileName;
  return info;
}

/** The tokenizer reads byte counts from the stream, which an object-mode stream (Readable.from) ignores. */
function byteStream(source: Readable): Readable {
  if (!source.readableObjectMode) return source;
  const bytes = new PassThrough();
  pipeline(source, bytes, () => {});
  return bytes;
}

/** A tokenizer over the source; the caller must close() it. Rejects when a path cannot be opened. */
export async function openAudioSource(
  source: AudioSource,
  hints: AudioSourceHints = {},
): Promise<ITokenizer> {
  const { fromBuffer, fromFile, fromStream } = await strtok3();
  if (typeof source === 'string') return fromFile(source, { regularFileOnly: true });
  if (source instanceof Uint8Array) return fromBuffer(source, { fileInfo: fileInfoFrom(hints) });
  return fromStream(byteStream(source), { fileInfo: fileInfoFrom(hints) });
}

/** The rest of the source in chunks of at most `chunkBytes` (fresh arrays: decoders may keep them). */
export async function* remainingChunks(
  tokenizer: ITokenizer,
  chunkBytes = 64 * 1024,
): AsyncGenerator<Uint8Array> {
  for (;;) {
    const chunk = new Uint8Array(chunkBytes);
    const read = await tokenizer.readBuffer(chunk, { mayBeLess: true });
    if (read === 0) return;
    yield read === chunkBytes ? chunk : chunk.subarray(0, read);
  }
}

/** Whether an error comes from the file system or the stream rather than from the bytes themselves. */
export function isReadError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code);
}
