import type { BlobBody } from './blob-store.ts';
import { BlobTooLargeError } from './errors.ts';

/** The body as a sequence of byte chunks, failing with BlobTooLargeError as soon as it passes `maxBytes`. */
export async function* bodyChunks(
  body: BlobBody,
  maxBytes = Number.POSITIVE_INFINITY,
): AsyncGenerator<Uint8Array> {
  if (body instanceof Uint8Array) {
    if (body.byteLength > maxBytes) throw new BlobTooLargeError(maxBytes);
    yield body;
    return;
  }
  let total = 0;
  for await (const chunk of body as AsyncIterable<Uint8Array | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    total += bytes.byteLength;
    if (total > maxBytes) throw new BlobTooLargeError(maxBytes);
    yield bytes;
  }
}
