import { ERRORS } from '@tus/server';
import { AppError, errors } from '../../../shared/errors.ts';

/** Extensions of tus this server does not offer: asking for one is a bad request here. */
const UNSUPPORTED = new Set<unknown>([
  ERRORS.UNSUPPORTED_CONCATENATION_EXTENSION,
  ERRORS.UNSUPPORTED_CREATION_DEFER_LENGTH_EXTENSION,
  ERRORS.UNSUPPORTED_EXPIRATION_EXTENSION,
]);

/**
 * The catalogue error for a tus request that failed: the service's own refusals as they were thrown, the tus
 * protocol's answers mapped onto the catalogue (so every answer is the API's error envelope with a
 * documented status), and an unexpected failure (storage down) as itself, a 500.
 */
export function tusFailure(cause: unknown, status: number, text: string): unknown {
  if (cause instanceof AppError) return cause;
  const message = text.trim() || 'The resumable upload request was refused';
  if (cause === ERRORS.ERR_LOCK_TIMEOUT) {
    return errors.conflict('Another request is writing this upload; ask for its offset (HEAD) and resume');
  }
  if (cause === ERRORS.INVALID_OFFSET) {
    return errors.conflict(
      'Upload-Offset is not the upload’s offset; ask for it (HEAD) and resume from there',
    );
  }
  if (cause === ERRORS.INVALID_CONTENT_TYPE) {
    return errors.unsupportedMediaType('PATCH bodies are sent as application/offset+octet-stream');
  }
  if (cause === ERRORS.MISSING_OFFSET) return errors.badRequest('upload_offset_required', message);
  if (cause === ERRORS.ABORTED) return errors.badRequest('upload_aborted', 'The upload was interrupted');
  if (status === 404 || status === 410) return errors.notFound('upload');
  if (status === 413) return errors.payloadTooLarge(message);
  if (status === 412) return errors.badRequest('tus_resumable_required', 'Send Tus-Resumable: 1.0.0');
  if (status === 400 && /content-type/i.test(message)) {
    return errors.unsupportedMediaType('PATCH bodies are sent as application/offset+octet-stream');
  }
  if (status === 400 || UNSUPPORTED.has(cause))
    return errors.badRequest('invalid_resumable_request', message);
  return cause instanceof Error ? cause : errors.internal();
}
