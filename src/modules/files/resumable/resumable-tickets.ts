import { signBlobToken } from '../../../storage/signing.ts';

/** Where resumable (tus) uploads are created; an upload's own URL is this path plus its id. */
export const RESUMABLE_PATH = '/api/v1/uploads/resumable';

/** The tus side of an upload ticket: the endpoint and the signed token to name in `Upload-Metadata`. */
export type ResumableTicket = { url: string; token: string };

/** What a ticket lets through: the upload's key, type, size limit and the end of its URL's life. */
export type ResumableGrant = { key: string; contentType: string; maxBytes: number; expiresAt: Date };

/**
 * Signs the token of the resumable way to send a ticket's bytes: the same PUT token the local store's signed
 * URLs carry (one key, one type, at most so many bytes, until the URL expires), whatever the store.
 */
export class ResumableTickets {
  constructor(
    private readonly baseUrl: string,
    private readonly secret: string,
  ) {}

  issue(grant: ResumableGrant): ResumableTicket {
    const token = signBlobToken(
      {
        method: 'PUT',
        key: grant.key,
        contentType: grant.contentType,
        maxBytes: grant.maxBytes,
        expiresAt: Math.floor(grant.expiresAt.getTime() / 1000),
      },
      this.secret,
    );
    return { url: `${this.baseUrl}${RESUMABLE_PATH}`, token };
  }
}
