import type { Readable } from 'node:stream';
import type { App } from '../../app-types.ts';
import { auth } from '../../plugins/auth.ts';
import { errorResponse } from '../../shared/schemas.ts';
import { BinaryResponse, SignedTokenQuery, UploadBody, UploadResult } from './files.schemas.ts';
import { resumableRoutes } from './resumable/resumable.routes.ts';

const anonymous = { config: { auth: auth.anonymous, extension: true } } as const;

const signatureErrors = {
  403: errorResponse('invalid_signature (tampered or foreign URL) or url_expired'),
  404: errorResponse('No such file, or (S3 storage) a URL the service does not serve itself'),
};

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The signed URLs of the local disk store. They carry no bearer token: the signature in `token` is the
 * authority. With S3 storage the URLs point at the bucket instead and these routes answer 404, except for
 * marked download URLs, which the service counts and sends on to the bucket.
 */
export async function filesRoutes(app: App) {
  const transfers = app.services.fileTransfers;
  await app.register(resumableRoutes);

  await app.register(async (scope: App) => {
    // The body is the file itself, streamed to disk as it arrives: no parser reads it into memory.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    scope.put(
      '/api/v1/files/upload',
      {
        ...anonymous,
        schema: {
          operationId: 'files.upload',
          summary: 'Upload the bytes of a file to a signed upload URL',
          description:
            'No bearer token: the signed `token` of the URL is the authority (403 invalid_signature when it ' +
            'does not verify, url_expired once it expired; 404 with S3 storage, whose URLs point at the ' +
            'bucket). Send the bytes as the body with the headers the upload URL came with. The URL is bound to one ' +
            'key, one content type and a maximum (or exact) size, and expires. An upload without an announced ' +
            "size takes the team's quota as its bytes arrive: a PUT that passes the free bytes (quota minus used " +
            'bytes and what other open uploads hold) is refused (413 quota_exceeded) and stores nothing; its ' +
            'first bytes also take one of the MAX_OPEN_UPLOADS_PER_TEAM open-upload slots (409 ' +
            'too_many_open_uploads when none is left). Register the file afterwards with the endpoint that issued the URL. Registration closes ' +
            'the upload first: a PUT arriving or still being received after that is refused (409) and changes ' +
            'nothing; what is registered is exactly what was stored before the upload closed.',
          querystring: SignedTokenQuery,
          body: UploadBody,
          response: {
            200: UploadResult,
            ...signatureErrors,
            409: errorResponse(
              'upload_closed: being registered, already registered, discarded or expired; ' +
                'too_many_open_uploads: the team has no open-upload slot left for a new upload',
            ),
            413: errorResponse(
              'payload_too_large: more bytes than the URL allows; quota_exceeded: more than the team has free',
            ),
            415: errorResponse('unsupported_media_type: not the content type the URL names'),
          },
        },
      },
      async (request, reply) => {
        const result = await transfers.receiveUpload(
          request.query.token,
          {
            contentType: header(request.headers['content-type']),
            contentLength: header(request.headers['content-length']),
          },
          request.body as Readable,
        );
        return reply.header('etag', result.etag).send(result);
      },
    );
  });

  app.get(
    '/api/v1/files/download',
    {
      ...anonymous,
      schema: {
        operationId: 'files.download',
        summary: 'Download a file from a signed download URL; byte ranges let players seek',
        description:
          'Supports `Range: bytes=a-b` (206 with Content-Range), `If-Range`, and `If-None-Match` (304). ' +
          'Content-Disposition names the file (inline or attachment, as the URL was issued). Some URLs ' +
          '(e.g. the stream URL of a version’s audio) are marked: fetching one from its first byte is ' +
          'recorded (a play); with S3 storage they answer 302 to the bucket. No bearer token: the signed ' +
          '`token` of the URL is the authority (403 invalid_signature or url_expired; 404 when the file is ' +
          'gone, or when what handed the URL out no longer allows it, e.g. a review link revoked since). ' +
          'Changes nothing but what a marked URL records (a play, a review link’s download).',
        querystring: SignedTokenQuery,
        response: {
          200: BinaryResponse('The whole file'),
          206: BinaryResponse('The requested byte range'),
          302: {
            description: 'S3 storage: a marked URL sends the client on to a presigned URL of the bucket',
            type: 'null',
          },
          304: { description: 'Not modified (If-None-Match matched the ETag)', type: 'null' },
          ...signatureErrors,
          416: errorResponse('range_not_satisfiable, with Content-Range: bytes */size'),
        },
      },
    },
    async (request, reply) => {
      const answer = await transfers.openDownload(
        request.query.token,
        {
          range: header(request.headers.range),
          ifRange: header(request.headers['if-range']),
          ifNoneMatch: header(request.headers['if-none-match']),
        },
        { method: request.method, log: request.log },
      );
      reply.code(answer.status).headers(answer.headers);
      return reply.send(answer.stream ?? null);
    },
  );
}
