import { withoutTrailing } from '../../shared/text.ts';
import { assertExpiry, type DownloadUrl, type DownloadUrlRequest } from '../../storage/blob-store.ts';
import { LOCAL_DOWNLOAD_PATH } from '../../storage/local-disk-store.ts';
import { signBlobToken } from '../../storage/signing.ts';

/** What a marked URL carries back to its area: a topic that names the handler, and a subject for it. */
export type DownloadMark = { topic: string; subject: string };

/** Runs when a URL marked with its topic is fetched from its first byte. */
export type MarkHandler = (subject: string) => Promise<void>;

/** Decides, on every fetch of a URL marked with its topic, whether its file may still be served. */
export type MarkGuard = (subject: string) => Promise<boolean>;

const TOPIC = /^[a-z][a-z0-9_.]{0,39}$/;
const MAX_SUBJECT_LENGTH = 200;

/** The minimal logger a failing handler is reported to. */
export type MarkLog = { warn(details: object, message: string): void };

/**
 * Marked downloads, for areas that need to know when a file is fetched (e.g. a play of a version's audio)
 * without the files area knowing why. A marked URL always points at the service's own download route, whatever
 * the store, so the service sees every fetch; the mark is inside the signed token, so a client can neither
 * forge nor alter it. Handlers register per topic; each process registers its own at start.
 */
export class DownloadMarks {
  readonly #handlers = new Map<string, MarkHandler>();
  readonly #guards = new Map<string, MarkGuard>();

  constructor(private readonly signer: { baseUrl: string; secret: string; now: () => number }) {}

  /** Registers the handler of a topic (one per topic). */
  on(topic: string, handler: MarkHandler): void {
    if (!TOPIC.test(topic)) throw new TypeError(`Invalid download mark topic: ${topic}`);
    if (this.#handlers.has(topic)) throw new Error(`Download mark topic ${topic} has a handler already`);
    this.#handlers.set(topic, handler);
  }

  /**
   * Registers the guard of a topic (one per topic): run before every fetch of a URL with that mark (any
   * method, any range, also before a redirect to the store), so rights that ended end the URLs handed out.
   */
  guard(topic: string, guard: MarkGuard): void {
    if (!TOPIC.test(topic)) throw new TypeError(`Invalid download mark topic: ${topic}`);
    if (this.#guards.has(topic)) throw new Error(`Download mark topic ${topic} has a guard already`);
    this.#guards.set(topic, guard);
  }

  /** Whether the file of a URL with this mark may be served now: its topic's guard agrees, or it has none. */
  async allows(mark: string): Promise<boolean> {
    const colon = mark.indexOf(':');
    const guard = colon > 0 ? this.#guards.get(mark.slice(0, colon)) : undefined;
    return guard ? guard(mark.slice(colon + 1)) : true;
  }

  /** A signed URL of the service's download route carrying `mark`. */
  sign(request: DownloadUrlRequest, mark: DownloadMark): DownloadUrl {
    if (!TOPIC.test(mark.topic) || mark.subject.length > MAX_SUBJECT_LENGTH)
      throw new TypeError('Invalid download mark');
    assertExpiry(request.expiresInSeconds);
    const expiresAt = Math.floor(this.signer.now() / 1000) + request.expiresInSeconds;
    const token = signBlobToken(
      {
        method: 'GET',
        key: request.key,
        expiresAt,
        ...(request.downloadName !== undefined ? { downloadName: request.downloadName } : {}),
        ...(request.contentType !== undefined ? { contentType: request.contentType } : {}),
        ...(request.disposition !== undefined ? { disposition: request.disposition } : {}),
        mark: `${mark.topic}:${mark.subject}`,
      },
      this.signer.secret,
    );
    return {
      url: `${withoutTrailing(this.signer.baseUrl, (c) => c === '/')}${LOCAL_DOWNLOAD_PATH}?token=${token}`,
      expiresAt: new Date(expiresAt * 1000),
    };
  }

  /**
   * Hands the subject of a fetched URL's mark to its topic's handler. A handler that fails is logged and never
   * fails the download: the bytes matter more than the bookkeeping.
   */
  async fetched(mark: string, log: MarkLog): Promise<void> {
    const colon = mark.indexOf(':');
    const handler = colon > 0 ? this.#handlers.get(mark.slice(0, colon)) : undefined;
    if (!handler) return;
    try {
      await handler(mark.slice(colon + 1));
    } catch (error) {
      log.warn({ err: error, mark }, 'A download mark handler failed');
    }
  }
}
