/** One entry of a 400 `validation_failed` answer: a JSON pointer into the request and what is wrong there. */
export type ErrorDetail = { path: string; message: string };

/** An error a client caused or may see: rendered as `{error, code, details?}` with its HTTP status. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** The catalogue: every error the service answers comes from here. */
export const errors = {
  unauthorized: () => new AppError(401, 'unauthorized', 'Unauthorized'),
  invalidJson: (message = 'The request body is not valid JSON') => new AppError(400, 'invalid_json', message),
  validation: (details: ErrorDetail[], message = 'The request is not valid') =>
    new AppError(400, 'validation_failed', message, details),
  badRequest: (code: string, message: string) => new AppError(400, code, message),
  insufficientScope: (scope: string) =>
    new AppError(403, 'insufficient_scope', `This API key lacks the scope ${scope}`, [
      { path: '/scope', message: scope },
    ]),
  sessionRequired: () =>
    new AppError(403, 'session_required', 'This endpoint needs a session token; API keys are not accepted'),
  forbidden: (message = 'Your role in this team does not allow this') =>
    new AppError(403, 'forbidden', message),
  /** Something sent to an e-mail address, claimed by an account that has not shown the address is its own. */
  emailUnverified: () =>
    new AppError(
      403,
      'email_unverified',
      'Your e-mail address is not verified. Open the link of the verification mail sent when you signed up ' +
        '(or ask for a new one with POST /api/v1/auth/verify-email/resend), or use the link or token of ' +
        'the invitation itself',
    ),
  /** A mailed token (verification, address change, password reset) that was used, has expired or never existed. */
  invalidToken: () =>
    new AppError(
      400,
      'invalid_token',
      'This link is not valid: it was already used, has expired or was replaced by a newer one',
    ),
  notFound: (what = 'resource') => new AppError(404, 'not_found', `${capitalise(what)} not found`),
  routeNotFound: (method: string, url: string) =>
    new AppError(404, 'not_found', `No route ${method} ${url.split('?')[0]}`),
  /** The path exists but not with this method; `Allow` lists the methods it has. */
  methodNotAllowed: (method: string, allowed: readonly string[]) =>
    new AppError(405, 'method_not_allowed', `This path does not answer ${method}`, undefined, {
      allow: allowed.join(', '),
    }),
  conflict: (message: string) => new AppError(409, 'conflict', message),
  /**
   * A move into a status whose approval requirement is not met: one detail at `path` holding the status, the
   * approvals it asks (`required`, by `roles`), the fewest any item has (`have`) and the tracks short of them.
   */
  approvalRequired: (
    path: string,
    message: string,
    shortfall: { status: string; required: number; have: number; roles: string[]; missing: number[] },
  ) => new AppError(409, 'approval_required', message, [{ path, message, ...shortfall }]),
  /** A change of a review link that was revoked: a revoked link stays as it was. */
  linkRevoked: () =>
    new AppError(409, 'link_revoked', 'This review link was revoked; create a new link to share again'),
  /** A conditional write (`If-Match`) sent without its condition. */
  preconditionRequired: (message: string) => new AppError(428, 'precondition_required', message),
  payloadTooLarge: (message = 'The request body is too large') =>
    new AppError(413, 'payload_too_large', message),
  unsupportedMediaType: (message = 'Request bodies must be sent as application/json') =>
    new AppError(415, 'unsupported_media_type', message),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError(429, 'rate_limited', 'Too many requests', undefined, {
      'retry-after': String(retryAfterSeconds),
    }),
  /** A team's plan has no room left for a file of this size. */
  quotaExceeded: (message: string) => new AppError(413, 'quota_exceeded', message),
  /** A file of a type its kind (audio, image, video, document) does not accept. */
  unsupportedFileType: (message: string) => new AppError(400, 'unsupported_file_type', message),
  /** Registering (or PUTting to) an upload that was registered, discarded or has expired. */
  uploadClosed: () =>
    new AppError(
      409,
      'upload_closed',
      'This upload was already registered, discarded or has expired; ask for a new upload URL',
    ),
  /** Another registration of the same upload is moving its bytes right now. */
  uploadRegistering: () =>
    new AppError(
      409,
      'upload_registering',
      'This upload is being registered right now; try again in a moment',
    ),
  /** A team may hold only so many queued or running music-tool jobs at once. */
  tooManyJobs: (max: number, retryAfterSeconds: number) =>
    new AppError(
      429,
      'too_many_jobs',
      `The team already has ${max} music-tool jobs queued or running; run more once some have finished`,
      undefined,
      { 'retry-after': String(retryAfterSeconds) },
    ),
  /** A version compared by loudness has no stored analysis, and the caller may not start one. */
  analysisMissing: (details: ErrorDetail[]) =>
    new AppError(
      409,
      'analysis_missing',
      'A version has not been analysed yet and you may not start the analysis: a member (or an API key with ' +
        'tracks:write) of the team that owns the track can, by calling this again or with POST ' +
        '.../music-tools {operation: analyze}',
      details,
    ),
  /** The latest analysis of a version compared by loudness failed, and it has no earlier one. */
  analysisFailed: (details: ErrorDetail[]) =>
    new AppError(
      409,
      'analysis_failed',
      'The analysis of a version failed (its audio could not be measured); run analyze again with POST ' +
        '.../music-tools once the audio is fixed',
      details,
    ),
  /** A team may hold only so many open (issued, not yet registered) upload URLs at once. */
  tooManyOpenUploads: (max: number) =>
    new AppError(
      409,
      'too_many_open_uploads',
      `The team already has ${max} open uploads: register or discard some, or wait until they expire`,
    ),
  /** Registering before the bytes arrived. */
  uploadMissing: () =>
    new AppError(
      409,
      'upload_missing',
      'Nothing has been uploaded for this key yet: PUT the file to the upload URL first',
    ),
  uploadSizeMismatch: (declared: number, actual: number) =>
    new AppError(
      400,
      'size_mismatch',
      `The uploaded file has ${actual} bytes but ${declared} were announced; upload it again`,
    ),
  /** A signed upload or download URL whose signature does not verify (tampered, truncated, other use). */
  invalidSignature: () =>
    new AppError(403, 'invalid_signature', 'The signature of this URL is not valid; ask for a new URL'),
  signedUrlExpired: () => new AppError(403, 'url_expired', 'This URL has expired; ask for a new one'),
  rangeNotSatisfiable: (size: number) =>
    new AppError(
      416,
      'range_not_satisfiable',
      `The requested range is outside the file (${size} bytes)`,
      undefined,
      {
        'content-range': `bytes */${size}`,
        'accept-ranges': 'bytes',
      },
    ),
  /** An `Idempotency-Key` sent again with a different request (method, route, parameters or body). */
  idempotencyKeyReused: () =>
    new AppError(
      409,
      'idempotency_key_reused',
      'This Idempotency-Key was already used for a different request; send a new key for a new request',
    ),
  /** The first request with this `Idempotency-Key` is still running after the wait for it. */
  idempotencyKeyInUse: (retryAfterSeconds: number) =>
    new AppError(
      409,
      'idempotency_key_in_use',
      'A request with this Idempotency-Key is still being processed; retry shortly',
      undefined,
      { 'retry-after': String(retryAfterSeconds) },
    ),
  /** Music tools: stem separation (`split` with `mode: 'separate'`) needs a configured service. */
  separationUnavailable: () =>
    new AppError(
      503,
      'separation_unavailable',
      'Stem separation is not configured on this server (SEPARATION_URL); use mode mid-side or left-right',
    ),
  internal: () => new AppError(500, 'internal_error', 'Something went wrong on our side'),
  unavailable: () =>
    new AppError(503, 'unavailable', 'The service is temporarily unavailable; retry shortly'),
};

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
