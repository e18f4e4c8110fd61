import type { components } from './schema.ts';

/** The body of every error answer of the API. */
export type ErrorBody = components['schemas']['ErrorResponse'];

/** What an openapi-fetch call answers: the parsed body under `data` or `error`, and the response. */
export type Answer<Data> = { data?: Data; error?: unknown; response: Response };

/**
 * An error answer of the API (or of a signed file URL), with the fields of its body: `code` is the stable
 * snake_case code to branch on (absent on 401, whose body is exactly `{"error": "Unauthorized"}`),
 * `details` lists the invalid fields of a 400, and `requestId` names the request in the service's logs.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly error: string;
  readonly details: NonNullable<ErrorBody['details']>;
  readonly requestId: string | undefined;
  readonly response: Response;

  constructor(response: Response, body: unknown) {
    const fields = isErrorBody(body) ? body : undefined;
    const error =
      fields?.error ??
      (typeof body === 'string' && body !== '' ? body : `${response.status} ${response.statusText}`.trim());
    super(fields?.code ? `${error} (${fields.code})` : error);
    this.name = 'ApiError';
    this.status = response.status;
    this.code = fields?.code;
    this.error = error;
    this.details = fields?.details ?? [];
    this.requestId = fields?.requestId ?? response.headers.get('x-request-id') ?? undefined;
    this.response = response;
  }

  /** Reads the error answer of a response that was not consumed yet (a plain `fetch`). */
  static async from(response: Response): Promise<ApiError> {
    const text = await response.text().catch(() => '');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON (a proxy's page, an object store's XML): the text is the message.
    }
    return new ApiError(response, body);
  }
}

function isErrorBody(body: unknown): body is ErrorBody {
  return typeof body === 'object' && body !== null && typeof (body as ErrorBody).error === 'string';
}

/**
 * The data of a successful answer, or an `ApiError` thrown for an error answer:
 * `const track = unwrap(await api.GET('/api/v1/tracks/{id}', ...))`. An answer without a body (204)
 * gives `undefined`.
 */
export function unwrap<R extends Answer<unknown>>(answer: R): Exclude<R['data'], undefined> {
  if (!answer.response.ok) throw new ApiError(answer.response, answer.error);
  return answer.data as Exclude<R['data'], undefined>;
}
