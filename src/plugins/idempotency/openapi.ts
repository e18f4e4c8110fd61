import { MAX_KEY_LENGTH } from './request-fingerprint.ts';

type Operation = {
  security?: unknown[];
  description?: string;
  parameters?: Record<string, unknown>[];
  responses?: Record<string, Record<string, unknown>>;
};
type Document = { info?: { description?: string }; paths?: Record<string, Record<string, Operation>> };

const OVERVIEW =
  ' Every authenticated POST takes an optional `Idempotency-Key` header (extension): the same key with the ' +
  'same request within 24 hours answers the first answer again, with `Idempotent-Replayed: true`, without ' +
  'running the operation twice. Keys belong to the caller (a user, or an API key). Anonymous POSTs (sign-in, ' +
  'sign-up, refresh) ignore the header.';

const KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Extension. Makes a retry safe: within 24 hours, the same key with the same request (method, path, ' +
    'query and body) answers the first answer again (2xx and 4xx answers are kept; after a 5xx the retry ' +
    'runs), marked `Idempotent-Replayed: true`; a duplicate sent while the first still runs waits for it. ' +
    'The same key with another request is 409 `idempotency_key_reused`. Keys are per caller. Caveat: an ' +
    'answer is kept once it is ready to send, so if the service stops between the change and that moment, ' +
    'a retry runs the operation again.',
  schema: { type: 'string', minLength: 1, maxLength: MAX_KEY_LENGTH, pattern: '^[ -~]+$' },
};

const REPLAYED_HEADER = {
  description:
    'Present (`true`) when this is the stored answer to an earlier request with the same Idempotency-Key',
  schema: { type: 'string', enum: ['true'] },
};

const CONFLICT_CODES =
  'idempotency_key_reused (the Idempotency-Key was used for another request) or idempotency_key_in_use ' +
  '(the first request with this key is still running; retry after Retry-After)';

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } };

/** Answers a replay can carry: the kept ones (2xx, 4xx but 401, 408 and 429). */
const replayable = (status: string) => /^[24]\d\d$/.test(status) && !['401', '408', '429'].includes(status);

/**
 * Documents `Idempotency-Key` on every POST in the OpenAPI document: the header parameter, the
 * `Idempotent-Replayed` response header and the 409 codes on authenticated operations, and that the
 * header is ignored on anonymous ones. Applied to the generated document, so every new route has it.
 */
export function documentIdempotency<D extends Document>(document: D): D {
  if (document.info)
    document.info = { ...document.info, description: `${document.info.description ?? ''}${OVERVIEW}` };
  for (const operations of Object.values(document.paths ?? {})) {
    const operation = operations.post;
    if (!operation) continue;
    if (!operation.security?.length) {
      operation.description = `${operation.description ? `${operation.description} ` : ''}Idempotency-Key is ignored here: anonymous requests have no caller to keep keys for.`;
      continue;
    }
    operation.parameters = [...(operation.parameters ?? []), KEY_PARAMETER];
    const responses = { ...operation.responses };
    for (const [status, response] of Object.entries(responses)) {
      // A shared error answer (`$ref`) says it once, in its component.
      if (!replayable(status) || '$ref' in response) continue;
      const headers = (response.headers ?? {}) as Record<string, unknown>;
      responses[status] = { ...response, headers: { ...headers, 'Idempotent-Replayed': REPLAYED_HEADER } };
    }
    const conflict = responses['409'];
    responses['409'] = conflict
      ? { ...conflict, description: `${conflict.description}; also ${CONFLICT_CODES}` }
      : { description: CONFLICT_CODES, content: ERROR_CONTENT };
    const invalid = responses['400'];
    if (invalid && !('$ref' in invalid))
      responses['400'] = {
        ...invalid,
        description: `${invalid.description}; also an Idempotency-Key that is not 1 to ${MAX_KEY_LENGTH} printable ASCII characters`,
      };
    operation.responses = responses;
  }
  return document;
}
