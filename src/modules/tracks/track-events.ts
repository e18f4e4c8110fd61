import { type Static, Type } from '@sinclair/typebox';
import { Id } from '../../shared/schemas.ts';
import { Track } from './tracks.schemas.ts';

/** The team that owns the track: its events go to this team only, never to teams it is shared with. */
export const OwningTeamId = Type.Integer({
  minimum: 1,
  description: 'The team that owns the track (events go to its endpoints only)',
});

const TRACK_FIELDS = [
  'title',
  'artist',
  'genre',
  'tags',
  'bpm',
  'key',
  'language',
  'isrc',
  'label',
  'distributor',
  'explicit',
  'lyrics',
  'notes',
  'releaseDate',
] as const;

const ofTrack = { trackId: Id, teamId: OwningTeamId };
const StatusId = Type.String({ description: "A status id of the team's track statuses" });
const SharedWith = Type.Integer({ minimum: 1, description: 'The other team: its id only' });

/** The webhook events of tracks themselves and their media: payload schemas, descriptions and examples. */
export const TRACK_EVENTS = {
  'track.created': {
    description: 'A track was created with its first version (which sends no version.created of its own).',
    schema: Type.Object({ ...ofTrack, versionId: Id, title: Type.String(), statusId: StatusId }),
    example: { trackId: 101, teamId: 7, versionId: 499, title: 'Night Drive', statusId: 'idea' },
  },
  'track.updated': {
    description: "A track's fields changed; `changes` holds each field given, with its new value.",
    schema: Type.Object({
      ...ofTrack,
      // Its own name: a pick of Track would otherwise carry Track's title (and examples) into the document.
      changes: Type.Partial(Type.Pick(Track, TRACK_FIELDS), {
        title: 'TrackChanges',
        description: 'The fields that were set, as GET /tracks/{id} now shows them',
        examples: [{ title: 'Night Drive (Extended)', bpm: 118 }],
      }),
    }),
    example: { trackId: 101, teamId: 7, changes: { title: 'Night Drive (Extended)', bpm: 118 } },
  },
  'track.status_changed': {
    description:
      'A track was moved to a status (`from` equals `to` when it was set to the status it had). `reason` ' +
      '`approvals`: the review decision of the actor completed the approvals of the next status, which ' +
      'advances tracks on its own (`requires.autoAdvance`); absent when someone moved the track.',
    schema: Type.Object({
      ...ofTrack,
      from: StatusId,
      to: StatusId,
      reason: Type.Optional(Type.Literal('approvals', { description: 'Why the service moved the track' })),
    }),
    example: { trackId: 101, teamId: 7, from: 'mastering', to: 'ready', reason: 'approvals' },
  },
  'track.deleted': {
    description:
      'A track was deleted: `soft` (restorable until purged), `hard` (gone at once with its files) or ' +
      '`purged` (a soft-deleted track removed after the retention period).',
    schema: Type.Object({
      ...ofTrack,
      mode: Type.Union([Type.Literal('soft'), Type.Literal('hard'), Type.Literal('purged')]),
    }),
    example: { trackId: 101, teamId: 7, mode: 'soft' },
  },
  'track.restored': {
    description: 'A soft-deleted track was restored.',
    schema: Type.Object(ofTrack),
    example: { trackId: 101, teamId: 7 },
  },
  'track.shared': {
    description: 'The owning team shared the track with another team; sent to the owning team only.',
    schema: Type.Object({ ...ofTrack, sharedWithTeamId: SharedWith }),
    example: { trackId: 101, teamId: 7, sharedWithTeamId: 9 },
  },
  'track.unshared': {
    description:
      'The owning team ended a share: the other team no longer holds the track (it left that team’s ' +
      'albums too); sent to the owning team only.',
    schema: Type.Object({ ...ofTrack, sharedWithTeamId: SharedWith }),
    example: { trackId: 101, teamId: 7, sharedWithTeamId: 9 },
  },
  'track.media_added': {
    description: 'A media file of the track (video, artwork, document, audio) was uploaded and registered.',
    schema: Type.Object({
      ...ofTrack,
      mediaId: Id,
      fileName: Type.String(),
      contentType: Type.String(),
      size: Type.Integer({ minimum: 0, description: 'Bytes' }),
    }),
    example: {
      trackId: 101,
      teamId: 7,
      mediaId: 880,
      fileName: 'teaser.mp4',
      contentType: 'video/mp4',
      size: 5_242_880,
    },
  },
  'track.media_deleted': {
    description: 'A media file of the track was deleted.',
    schema: Type.Object({ ...ofTrack, mediaId: Id }),
    example: { trackId: 101, teamId: 7, mediaId: 880 },
  },
} as const;

export type TrackEventData<T extends keyof typeof TRACK_EVENTS> = Static<(typeof TRACK_EVENTS)[T]['schema']>;
