import type { Readable } from 'node:stream';
import type { Db } from '../../db/client.ts';
import { errors } from '../../shared/errors.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { downloadHeaders } from '../../storage/http-range.ts';
import { etagMatches } from '../files/transfers.ts';
import { publicCoverByToken } from './tour-covers.repository.ts';

/**
 * Anyone may keep the image but must ask again before reusing it: a cover made private or deleted stops
 * being served at once, caches included; the ETag makes asking again cheap (304).
 */
const CACHE_CONTROL = 'public, no-cache';

/** Longer than any token issued; anything longer is not a token. */
const MAX_TOKEN_LENGTH = 128;

export type PublicCoverAnswer = { status: 200 | 304; headers: Record<string, string>; stream?: Readable };

/** Serves public tour covers to anyone who has their URL, straight from the blob store (local disk or S3). */
export class PublicTourCovers {
  constructor(
    private readonly db: Db,
    private readonly store: BlobStore,
  ) {}

  /** The image of the public cover with this token; 404 for any other token, private or deleted covers. */
  async open(token: string, ifNoneMatch: string | undefined): Promise<PublicCoverAnswer> {
    if (token.length > MAX_TOKEN_LENGTH) throw errors.notFound('cover');
    const [cover] = await publicCoverByToken(this.db, { token });
    if (!cover) throw errors.notFound('cover');
    // A registered file's bytes never change (its key is written once), so the file id is a strong validator.
    const etag = `"tour-cover-${cover.fileId}"`;
    if (etagMatches(ifNoneMatch, etag))
      return { status: 304, headers: { etag, 'cache-control': CACHE_CONTROL } };
    const content = await this.store.get(cover.key);
    if (!content) throw errors.notFound('cover');
    const { 'accept-ranges': _ranges, ...headers } = downloadHeaders({
      contentType: cover.contentType,
      size: content.size,
      etag,
      lastModified: cover.createdAt,
      disposition: 'inline',
    });
    return {
      status: 200,
      headers: {
        ...headers,
        'cache-control': CACHE_CONTROL,
        // Meant to be shown on other sites (a tour page, a ticket shop).
        'cross-origin-resource-policy': 'cross-origin',
      },
      stream: content.stream,
    };
  }
}
