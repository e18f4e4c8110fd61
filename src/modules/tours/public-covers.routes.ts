import type { App } from '../../app-types.ts';
import { auth } from '../../plugins/auth.ts';
import { errorResponse } from '../../shared/schemas.ts';
import { BinaryResponse } from '../files/files.schemas.ts';
import { PublicCoverParams } from './tour-covers.schemas.ts';

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The public URL of a tour cover: anonymous, the unguessable token in the path is the authority. */
export async function publicTourCoverRoutes(app: App) {
  const publicCovers = app.services.publicTourCovers;

  app.get(
    '/api/v1/public/tour-covers/:token',
    {
      config: { auth: auth.anonymous, extension: true, pathToken: 'token' },
      schema: {
        operationId: 'tours.covers.public',
        summary: 'The image of a public tour cover, for anyone (no token)',
        description:
          'Anonymous: no token needed (the unguessable token in the path is the authority; it is kept out of ' +
          'the request log). The publicUrl of a cover made public with ' +
          '`PUT /api/v1/tours/{id}/covers/{coverId}/public`. ' +
          'Answers the image bytes with their Content-Type, an ETag and `Cache-Control: public, no-cache` ' +
          '(caches keep it but ask again, so a cover made private is never served on); If-None-Match gives 304.',
        tags: ['tours'],
        params: PublicCoverParams,
        response: {
          200: BinaryResponse('The image'),
          304: { description: 'Not modified (If-None-Match matched the ETag)', type: 'null' },
          404: errorResponse('No public cover has this token (private, deleted, or never was)'),
        },
      },
    },
    async (request, reply) => {
      const answer = await publicCovers.open(request.params.token, header(request.headers['if-none-match']));
      reply.code(answer.status).headers(answer.headers);
      return reply.send(answer.stream ?? null);
    },
  );
}
