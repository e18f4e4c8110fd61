import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { PLAY_REPEAT_SECONDS } from '../play-marks.ts';
import { EXAMPLE_REVIEWER_ID } from '../versions/versions.schemas.ts';

export const Play = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    versionId: Id,
    playedAt: Timestamp,
    userId: Type.Union([Uuid, Type.Null()], {
      description: 'The user who played it; null when an API key did (or the user was deleted)',
    }),
    userName: Type.Union([Type.String(), Type.Null()]),
    keyId: Type.Union([Id, Type.Null()], { description: 'The team API key that played it, if a key did' }),
  },
  {
    title: 'VersionPlay',
    description:
      'A fetch of the version’s stream URL from its first byte. Repeats by the same listener within ' +
      `${PLAY_REPEAT_SECONDS} seconds count once; seeking (range requests) never counts.`,
    examples: [
      {
        id: 3301,
        versionId: 502,
        playedAt: '2026-03-16T20:12:09.000Z',
        userId: EXAMPLE_REVIEWER_ID,
        userName: 'Maya Ortiz',
        keyId: null,
      },
    ],
  },
);

export const PlayPage = Page(Play);
export const PlayListQuery = Type.Object(PageQuery);
