import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../../app-types.ts';
import { auth } from '../../../plugins/auth.ts';
import {
  CreateResumableHeaders,
  PatchResumableHeaders,
  ResumableChunk,
  ResumableHeaders,
  ResumableUploadParams,
  resumableAnswers,
  resumableRefusals,
} from './resumable.schemas.ts';
import { RESUMABLE_PATH } from './resumable-tickets.ts';

const anonymous = { config: { auth: auth.anonymous, extension: true } } as const;
/** Documented with the other file transfers. */
const tags = ['files'];
const TUS_BODY = 'application/offset+octet-stream';
const WHO =
  'No bearer token: the signed token of the upload ticket (given at creation) is the authority; the upload’s ' +
  'unguessable URL names it afterwards.';

/** The request as the tus server reads it; bodies stream through untouched. */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of [value].flat()) headers.append(name, one);
  }
  const body = request.body instanceof Readable ? (Readable.toWeb(request.body) as ReadableStream) : null;
  return new Request(`http://${request.host}${request.url}`, {
    method: request.method,
    headers,
    ...(body ? { body, duplex: 'half' } : {}),
  });
}

/** Sends the tus answer through Fastify, so the app's hooks (CORS, security headers, logs) see it. */
function answer(reply: FastifyReply, response: Response) {
  reply.code(response.status);
  for (const [name, value] of response.headers) {
    if (name === 'content-length') continue;
    if (name === 'access-control-expose-headers') {
      // Only for a cross-origin request, which the app's CORS settings answered; tus adds its own headers.
      const exposed = reply.getHeader(name);
      if (exposed !== undefined) reply.header(name, `${String(exposed)}, ${value}`);
      continue;
    }
    reply.header(name, value);
  }
  return reply.send();
}

/**
 * Resumable uploads through the tus protocol (1.0.0; creation, termination): another way to send the bytes of
 * any upload ticket, for large files and unsteady connections. Registration is unchanged.
 */
export async function resumableRoutes(app: App) {
  const resumable = app.services.resumableUploads;
  const run = async (request: FastifyRequest, reply: FastifyReply) =>
    answer(reply, await resumable.handle(webRequest(request)));

  await app.register(async (scope: App) => {
    // Bytes go to the store as they arrive: no parser reads them into memory.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    scope.post(
      RESUMABLE_PATH,
      {
        ...anonymous,
        schema: {
          tags,
          operationId: 'files.resumable.create',
          summary: 'Create a resumable (tus) upload for an upload ticket',
          description:
            `${WHO} Send \`Upload-Length\` and \`Upload-Metadata\` with the ticket's \`resumable.token\`. ` +
            'The token must verify and not be expired (403), the length must be within the ticket’s limit ' +
            '(413) and the type (`filetype`) the ticket’s (415); the ticket’s upload must still be open (409). ' +
            'The whole length is claimed of the team’s quota now (413 quota_exceeded), and handed back when the ' +
            'upload is terminated or expires with its ticket. Answers 201 with `Location`.',
          headers: CreateResumableHeaders,
          response: {
            201: resumableAnswers.created,
            ...resumableRefusals.token,
            ...resumableRefusals.createConflicts,
            ...resumableRefusals.tooLarge,
            ...resumableRefusals.type,
          },
        },
      },
      run,
    );

    scope.options(
      RESUMABLE_PATH,
      {
        ...anonymous,
        schema: {
          tags,
          operationId: 'files.resumable.options',
          summary: 'What the resumable upload server supports',
          description: `Anyone. Answers \`Tus-Version\`, \`Tus-Extension\` and \`Tus-Max-Size\`; changes nothing.`,
          response: { 204: resumableAnswers.options },
        },
      },
      run,
    );

    scope.head(
      `${RESUMABLE_PATH}/:uploadId`,
      {
        ...anonymous,
        schema: {
          tags,
          operationId: 'files.resumable.offset',
          summary: 'How much of a resumable upload arrived',
          description: `${WHO} Answers \`Upload-Offset\` and \`Upload-Length\` (404 for an unknown upload).`,
          params: ResumableUploadParams,
          headers: ResumableHeaders,
          response: { 200: resumableAnswers.offset, ...resumableRefusals.unknown },
        },
      },
      run,
    );

    scope.patch(
      `${RESUMABLE_PATH}/:uploadId`,
      {
        ...anonymous,
        schema: {
          tags,
          operationId: 'files.resumable.append',
          summary: 'Send the next bytes of a resumable upload',
          description:
            `${WHO} The body (\`${TUS_BODY}\`) continues the upload at \`Upload-Offset\`, which must be the ` +
            'offset HEAD answers (409 otherwise). Bytes past the announced length are refused (413). When the ' +
            'last byte arrives the bytes are published to the ticket’s key, exactly as a PUT to the upload URL ' +
            'does; register the key afterwards. A ticket registered, discarded or expired meanwhile takes no ' +
            'more bytes (409 upload_closed).',
          params: ResumableUploadParams,
          headers: PatchResumableHeaders,
          body: ResumableChunk,
          response: {
            204: resumableAnswers.patched,
            ...resumableRefusals.unknown,
            ...resumableRefusals.closed,
            ...resumableRefusals.tooLarge,
            ...resumableRefusals.patchType,
          },
        },
      },
      run,
    );

    scope.delete(
      `${RESUMABLE_PATH}/:uploadId`,
      {
        ...anonymous,
        schema: {
          tags,
          operationId: 'files.resumable.terminate',
          summary: 'Terminate a resumable upload',
          description:
            `${WHO} Removes the bytes received so far and hands back the quota the upload held (204); the ` +
            'ticket stays open for another upload. 404 for an unknown upload.',
          params: ResumableUploadParams,
          headers: ResumableHeaders,
          response: { 204: resumableAnswers.terminated, ...resumableRefusals.unknown },
        },
      },
      run,
    );
  });
}
