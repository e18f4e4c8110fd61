import type { App } from '../../../app-types.ts';
import { MAX_ANALYSED_SECONDS } from '../../../media/music-analysis.ts';
import { errorResponse } from '../../../shared/schemas.ts';
import { read, write } from '../route-auth.ts';
import { OWNER_ONLY, READERS, WRITERS } from '../share-rules.ts';
import { extension, versionArgs, versionRoutes } from '../version-routes.ts';
import { MusicToolBody, MusicToolJob, MusicToolJobParams } from './music-tools.schemas.ts';

const route = versionRoutes('music-tools');

/** Music tools on a version's audio: queue a job, read a job. */
export async function musicToolsRoutes(app: App) {
  const tools = app.services.trackMusicTools;

  app.post(
    route.path(),
    route.options(write, 'create', {
      summary: 'Run a music tool on the version’s audio: analyze, normalize, convert, trim or split',
      description:
        'Answers 202 with a queued job; the audio work runs in the background (poll GET ' +
        '.../music-tools/{jobId}). `analyze` stores loudness (EBU R128 integrated, range, true peak), tempo and ' +
        'key on the version (`analysis` in its detail); `normalize`, `convert` and `trim` add a version file ' +
        '(listed under `files` of the version); `split` adds two stems (mid/side or left/right) or, with a ' +
        'configured separation service, four (vocals, drums, bass, other). A job whose file cannot be read, ' +
        'runs out of time, of memory or of storage quota ends `failed` with `error` {code, message}. ' +
        `\`analyze\` measures loudness over the whole audio and tempo and key over its first ${MAX_ANALYSED_SECONDS} ` +
        'seconds (`analysedSeconds` in the result). The same operation with the same options already queued ' +
        'or running on the version is answered with that job (202) instead of a new one. A team may hold ' +
        'MUSIC_TOOLS_MAX_JOBS_PER_TEAM (10 by default) queued or running jobs; beyond that the answer is 429 ' +
        '`too_many_jobs` with Retry-After and nothing is queued. 409 when the version has no registered ' +
        'audio; 400 when `format` or `mode` do not fit the operation. When the job ends it sends the ' +
        '`music_tool.job.succeeded` or `music_tool.job.failed` webhook event (the request itself is recorded ' +
        `in the team's activity as \`version.music_tool_requested\`, no webhook). ${WRITERS} ${OWNER_ONLY}`,
      body: MusicToolBody,
      response: {
        202: MusicToolJob,
        409: errorResponse('The version has no registered audio yet'),
        429: errorResponse(
          'too_many_jobs: the team has MUSIC_TOOLS_MAX_JOBS_PER_TEAM music-tool jobs queued or running ' +
            '(with Retry-After); rate_limited (with Retry-After)',
        ),
        503: errorResponse(
          'separation_unavailable: `mode: separate` without a configured service (SEPARATION_URL); ' +
            'unavailable: the database is down',
        ),
      },
    }),
    async (request, reply) =>
      reply.code(202).send(await tools.request(...versionArgs(request), request.body)),
  );

  app.get(
    route.path('/:jobId'),
    route.options(extension(read), 'get', {
      summary: 'A music-tools job of the version: its status, and its result or error once finished',
      description:
        `${READERS} A job of another version is 404. Poll it until \`status\` is \`succeeded\` (then ` +
        '`result`) or `failed` (then `error`). Changes nothing.',
      params: MusicToolJobParams,
      response: { 200: MusicToolJob },
    }),
    async (request) => tools.job(...versionArgs(request), request.params.jobId),
  );
}
