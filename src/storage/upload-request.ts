import { mediaTypeOf } from './content-type.ts';
import type { PutTokenClaims } from './signing.ts';

export type UploadRequestCheck =
  | { ok: true }
  | {
      ok: false;
      status: 400 | 413 | 415;
      code: 'invalid_content_length' | 'payload_too_large' | 'unsupported_media_type';
      message: string;
    };

/**
 * The content type the upload route documents for every file: bytes sent under it are taken as the type the
 * URL names (the signature binds that type, and the bytes are stored and served under it).
 */
export const GENERIC_UPLOAD_TYPE = 'application/octet-stream';

/**
 * Checks the headers of a PUT to a local upload URL against its verified token, before reading the body.
 * A request without Content-Length (chunked) passes: the store's `maxBytes` stops it while streaming.
 */
export function checkUploadRequest(
  claims: PutTokenClaims,
  headers: { contentType: string | undefined; contentLength: string | number | undefined },
): UploadRequestCheck {
  const sent = mediaTypeOf(headers.contentType);
  if (sent !== mediaTypeOf(claims.contentType) && sent !== GENERIC_UPLOAD_TYPE) {
    return {
      ok: false,
      status: 415,
      code: 'unsupported_media_type',
      message: `This upload URL accepts Content-Type ${claims.contentType} (or ${GENERIC_UPLOAD_TYPE}) only`,
    };
  }
  if (headers.contentLength === undefined || headers.contentLength === '') return { ok: true };
  const length = Number(headers.contentLength);
  if (!Number.isSafeInteger(length) || length < 0) {
    return {
      ok: false,
      status: 400,
      code: 'invalid_content_length',
      message: 'Content-Length is not a valid length',
    };
  }
  if (length > claims.maxBytes) {
    return {
      ok: false,
      status: 413,
      code: 'payload_too_large',
      message: `This upload URL accepts at most ${claims.maxBytes} bytes`,
    };
  }
  return { ok: true };
}
