import { documentIdempotency } from '../idempotency/openapi.ts';
import { hardened } from '../validation.ts';
import { errorResponseComponents, referenceErrorResponses } from './error-responses.ts';
import { withExamples } from './examples.ts';
import { hoistNamedSchemas } from './named-schemas.ts';
import { DOCUMENT_TAGS, TAG_GROUPS } from './tags.ts';

type Json = Record<string, unknown>;
export type Operation = Json & { operationId?: string; parameters?: { in: string }[]; responses?: Json };
export type OpenApiDocument = Json & {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Json } & Json;
  webhooks?: Json;
};

/** What the API sends rather than serves: OpenAPI 3.1 `webhooks`, and the component schemas they name. */
export type OutgoingWebhooks = { webhooks: Json; schemas: Json };

/** The documented form of a route's URL: `{param}` placeholders, and no trailing slash (it is optional). */
export function documentedPath(url: string): string {
  const path = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

const STATUS_TEXT: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted: the work continues in the background',
  204: 'Done; no content',
  206: 'Partial content: the requested range',
};

/** Answers a route schema left without a description are named by their status. */
function namedAnswers(operation: Operation): Operation {
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const answer = response as Json;
    if (answer.description === 'Default Response')
      answer.description = STATUS_TEXT[status] ?? `Status ${status}`;
  }
  return operation;
}

/**
 * A header the route answers 428 without is required, though its schema leaves it optional so that its
 * absence gets 428 rather than validation's 400.
 */
function preconditionsRequired(operation: Operation): Operation {
  if (!operation.responses?.['428']) return operation;
  for (const parameter of operation.parameters ?? []) {
    const header = parameter as Json;
    if (header.in === 'header' && /^if-(match|unmodified-since)$/i.test(String(header.name)))
      header.required = true;
  }
  return operation;
}

/**
 * The served document from the one the route schemas give: paths without their optional trailing slash,
 * schemas as validation and serialization read them (closed objects, bounded integers), generic errors and
 * named schemas as components, declared tags, and an example for every request and answer.
 */
export function finishDocument(
  document: OpenApiDocument,
  options: { extensions: ReadonlySet<string>; webhooks?: OutgoingWebhooks | undefined },
): OpenApiDocument {
  const paths: NonNullable<OpenApiDocument['paths']> = {};
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    const documented = documentedPath(path);
    for (const [method, operation] of Object.entries(operations)) {
      const finished = referenceErrorResponses(
        namedAnswers(preconditionsRequired(hardened(operation) as Operation)),
      );
      if (options.extensions.has(operation.operationId as string)) finished['x-extension'] = true;
      paths[documented] = { ...paths[documented], [method]: finished };
    }
  }
  const components = document.components ?? {};
  const withWebhooks: OpenApiDocument = {
    ...(documentIdempotency({ ...document, paths } as Parameters<
      typeof documentIdempotency
    >[0]) as OpenApiDocument),
    tags: DOCUMENT_TAGS,
    'x-tagGroups': TAG_GROUPS,
    ...(options.webhooks ? { webhooks: options.webhooks.webhooks } : {}),
    components: {
      ...components,
      responses: errorResponseComponents(),
      // Payloads are built from the same schemas as answers (closed objects), and name some of the same ones.
      schemas: { ...components.schemas, ...(hardened(options.webhooks?.schemas ?? {}) as Json) },
    },
  };
  return withExamples(hoistNamedSchemas(withWebhooks, ['paths', 'webhooks']));
}
