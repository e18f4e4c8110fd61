import type { App } from '../../app-types.ts';
import { auth } from '../../plugins/auth.ts';
import { pageOf } from '../../shared/pagination.ts';
import { etagMatches } from '../files/transfers.ts';
import { TestimonialPage, TestimonialsQuery } from './testimonials.schemas.ts';
import { TESTIMONIALS_MAX_AGE_SECONDS } from './testimonials.service.ts';

/** `GET /api/v1/testimonials`: anonymous, cacheable. */
export async function testimonialsRoutes(app: App) {
  const testimonials = app.services.testimonials;

  app.get(
    '/api/v1/testimonials',
    {
      config: { auth: auth.anonymous },
      schema: {
        operationId: 'testimonials.list',
        summary: 'Published testimonials, for anyone (no token)',
        description:
          'Anonymous (no token needed). Changes nothing. ' +
          'Newest first, in keyset pages (pass nextCursor as cursor). Each page carries an ETag and ' +
          `\`Cache-Control: public, max-age=${TESTIMONIALS_MAX_AGE_SECONDS}\`; If-None-Match with the ETag gives ` +
          '304. Operators add and remove testimonials with `tmw testimonial`.',
        querystring: TestimonialsQuery,
        response: {
          200: TestimonialPage,
          304: { description: 'Not modified (If-None-Match matched the ETag)', type: 'null' },
        },
      },
    },
    async (request, reply) => {
      const { page, etag } = await testimonials.page(pageOf(request.query));
      reply.header('etag', etag).header('cache-control', `public, max-age=${TESTIMONIALS_MAX_AGE_SECONDS}`);
      const ifNoneMatch = request.headers['if-none-match'];
      if (etagMatches(Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch, etag))
        return reply.code(304).send();
      return page;
    },
  );
}
