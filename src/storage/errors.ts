/** A key (or prefix) that is not a safe relative blob path, or one that resolves outside the store. */
export class InvalidBlobKeyError extends Error {
  readonly code = 'invalid_blob_key';
  constructor(
    readonly key: string,
    readonly reason: string,
  ) {
    super(`Invalid blob key ${JSON.stringify(key.slice(0, 200))}: ${reason}`);
    this.name = 'InvalidBlobKeyError';
  }
}

export class BlobNotFoundError extends Error {
  readonly code = 'blob_not_found';
  constructor(readonly key: string) {
    super(`No blob at ${JSON.stringify(key)}`);
    this.name = 'BlobNotFoundError';
  }
}

/** A body grew past the byte limit it was written with; nothing was stored under the key. */
export class BlobTooLargeError extends Error {
  readonly code = 'payload_too_large';
  constructor(readonly maxBytes: number) {
    super(`The body is larger than ${maxBytes} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

/** A ranged read asked for bytes the blob does not have; answer 416 with `Content-Range: bytes *\/size`. */
export class RangeNotSatisfiableError extends Error {
  readonly code = 'range_not_satisfiable';
  constructor(
    readonly key: string,
    readonly size: number,
  ) {
    super(`The requested range is outside ${JSON.stringify(key)} (${size} bytes)`);
    this.name = 'RangeNotSatisfiableError';
  }
}
