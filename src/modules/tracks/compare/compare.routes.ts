import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { errorResponse, IdParams } from '../../../shared/schemas.ts';
import { read } from '../route-auth.ts';
import { READERS } from '../share-rules.ts';
import { extension } from '../version-routes.ts';
import { Comparison, ComparisonPending, ComparisonQuery } from './compare.schemas.ts';

/** Fair A/B: two versions of a track matched for loudness and aligned in time. */
export async function compareRoutes(app: App) {
  const compare = app.services.trackCompare;

  app.get(
    '/api/v1/tracks/:id/compare',
    {
      ...extension(read),
      schema: {
        operationId: 'tracks.compare',
        summary: 'Compare two versions fairly: their loudness, the gains that match it, and their offset',
        description:
          `${READERS} Answers each version's EBU R128 integrated loudness, true peak and duration (from its ` +
          'latest music-tools `analyze` result) and the gain to play it at so both sound equally loud: the ' +
          'quieter version is the reference (gain 0) and the louder one is lowered to it (a negative gain), ' +
          'so no version is ever raised and pushed towards clipping. `offsetSeconds` and `confidence` say ' +
          'where `a` lies in `b`, from their waveforms (`alignment` says how far to trust them). `a` and ' +
          '`b` may be the same version. When a version has not been analysed yet, the answer is 202 with ' +
          'the `analyze` jobs to wait for: jobs already queued or running are shown, and missing ones are ' +
          'queued for callers who may queue music-tool work on the track (members of the owning team, its ' +
          'API keys with `tracks:write`); anyone else gets 409 `analysis_missing` naming the versions in ' +
          '`details` (`/query/a`, `/query/b`). Ask again once the jobs have succeeded. 409 ' +
          '`analysis_failed` when the latest analysis of an unanalysed version failed (run `analyze` again ' +
          'with POST .../music-tools), 409 `conflict` for a version without registered audio, 404 for a ' +
          'version of another track. Changes nothing but the queued jobs.',
        params: IdParams,
        querystring: ComparisonQuery,
        response: {
          200: Comparison,
          202: ComparisonPending,
          409: errorResponse(
            'analysis_missing: a version is not analysed and the caller may not queue its analysis; ' +
              'analysis_failed: its latest analysis failed; conflict: a version has no registered audio',
          ),
          429: errorResponse(
            'too_many_jobs: the team has MUSIC_TOOLS_MAX_JOBS_PER_TEAM music-tool jobs queued or running ' +
              '(with Retry-After); rate_limited (with Retry-After)',
          ),
        },
      },
    },
    async (request, reply) => {
      const { a, b } = request.query;
      const outcome = await compare.compare(principalOf(request), request.params.id, a, b);
      return outcome.ready ? outcome.comparison : reply.code(202).send(outcome.pending);
    },
  );
}
