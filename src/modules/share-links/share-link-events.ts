import { type Static, Type } from '@sinclair/typebox';
import { Id } from '../../shared/schemas.ts';

const NullableId = Type.Union([Id, Type.Null()]);

const ofWayIn = {
  shareLinkId: Id,
  recipientId: Type.Integer({
    minimum: 1,
    description: 'The way in that was used: the link’s general URL or one recipient’s own URL',
  }),
  recipientEmail: Type.Union([Type.String(), Type.Null()], {
    description: 'The recipient the URL was sent to; null for the link’s general URL',
  }),
  teamId: Type.Integer({
    minimum: 1,
    description: 'The team that owns the link (events go to its endpoints only)',
  }),
};

/** The webhook events of review links: what guests did through them. */
export const SHARE_LINK_EVENTS = {
  'share_link.opened': {
    description:
      'A way into a review link (its general URL or a recipient’s) was opened for the first time. trackId ' +
      'and versionId name the link’s target when it is a track or a version (null for an album or a playlist).',
    schema: Type.Object({ ...ofWayIn, trackId: NullableId, versionId: NullableId }),
    example: {
      shareLinkId: 14,
      recipientId: 31,
      recipientEmail: 'ana@label.example',
      teamId: 7,
      trackId: 101,
      versionId: null,
    },
  },
  'share_link.downloaded': {
    description:
      'A guest downloaded a file through a review link (fetched a download URL from its first byte): the ' +
      'version’s audio or preview file, or a stem’s audio (stemId).',
    schema: Type.Object({
      ...ofWayIn,
      trackId: Id,
      versionId: Id,
      stemId: Type.Optional(Id),
      fileId: Type.Optional(Id),
    }),
    example: {
      shareLinkId: 14,
      recipientId: 31,
      recipientEmail: 'ana@label.example',
      teamId: 7,
      trackId: 101,
      versionId: 502,
      stemId: 61,
      fileId: 1210,
    },
  },
} as const;

export type ShareLinkEventData<T extends keyof typeof SHARE_LINK_EVENTS> = Static<
  (typeof SHARE_LINK_EVENTS)[T]['schema']
>;
