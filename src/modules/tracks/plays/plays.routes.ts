import type { App } from '../../../app-types.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { PLAY_REPEAT_SECONDS } from '../play-marks.ts';
import { read } from '../route-auth.ts';
import { READERS } from '../share-rules.ts';
import { versionArgs, versionRoutes } from '../version-routes.ts';
import { PlayListQuery, PlayPage } from './plays.schemas.ts';

const route = versionRoutes('plays');

/** Who played a version. */
export async function playsRoutes(app: App) {
  app.get(
    route.path(),
    route.options(read, 'list', {
      summary: 'Who played the version and when, newest first',
      description:
        'A play is recorded when the stream URL of the version’s audio (`audio.url` of the version detail) ' +
        'is fetched from its first byte, for the user or API key the detail was read with. Range requests ' +
        `while seeking are not plays, and repeats by the same listener within ${PLAY_REPEAT_SECONDS} ` +
        `seconds count once. ${READERS} A version of another track is 404. Changes nothing.`,
      querystring: PlayListQuery,
      response: { 200: PlayPage },
    }),
    async (request) => app.services.trackPlays.list(...versionArgs(request), pageOf(request.query)),
  );
}
