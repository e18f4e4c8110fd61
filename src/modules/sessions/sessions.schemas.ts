import { type TSchema, Type } from '@sinclair/typebox';
import { STUDIO_SESSION_STATUSES } from '../../db/schema/index.ts';
import {
  CountedPage,
  CountQuery,
  Id,
  Page,
  PageQuery,
  Timestamp,
  TimestampInput,
  Uuid,
} from '../../shared/schemas.ts';
import { StringEnum } from '../../shared/string-enum.ts';

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** Ids and times the examples of the area share, so the examples of one answer tell one consistent story. */
export const EXAMPLE = {
  teamId: 7,
  sessionId: 42,
  studioId: 3,
  campId: 5,
  trackId: 101,
  recordingId: 11,
  ownerId: '0193a5f2-6c1e-7b3a-9f10-3c2d4e5f6a7b',
  memberId: '0193a5f2-7d2f-7c4b-8a21-4d3e5f6a7b8c',
  guestId: '0193a5f2-8e30-7d5c-9b32-5e4f6a7b8c9d',
  startsAt: '2026-03-14T09:30:00.000Z',
  endsAt: '2026-03-14T13:30:00.000Z',
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-02T16:45:00.000Z',
} as const;

/** A signed URL of the examples (download; upload with the upload path). */
export const exampleSignedUrl = (path: 'download' | 'upload', token: string) =>
  `https://music.example.com/api/v1/files/${path}?token=${token}`;

/** The audio facts and waveform state the examples show for a registered WAV file. */
export const EXAMPLE_AUDIO = {
  facts: {
    durationSeconds: 241.5,
    sampleRate: 48000,
    channels: 2,
    bitsPerSample: 24,
    bitrate: 2304000,
    codec: 'PCM',
    container: 'WAVE',
    lossless: true,
  },
  peaks: { status: 'ready', bucketCount: 1000, durationSeconds: 241.5 },
} as const;

/** Hours a session lasts when it is created without `endsAt`. */
export const DEFAULT_SESSION_HOURS = 2;

export const SessionParams = Type.Object({ sessionId: Id });
export { EmptyBody } from '../../shared/schemas.ts';

/**
 * The `teamId` the specification sends with everything about one session: optional, since the session names
 * its team; when sent it must be that team (another team's id answers 404, as for another team's session).
 */
export const OptionalTeamId = Type.Optional({
  ...Id,
  description:
    "The session's team. Optional: the session names its team; when given it must be that team, " +
    "else 404 as for another team's session",
});
/** `teamId` of the reads of one session. */
export const TeamQuery = Type.Object({ teamId: OptionalTeamId });
export const TeamPageQuery = Type.Object({ ...TeamQuery.properties, ...PageQuery });
/** `teamId*` of a team's list that no session names: required. */
export const RequiredTeamPageQuery = Type.Object({
  teamId: { ...Id, description: 'The team; a team you are not in answers 404' },
  ...PageQuery,
});

const Status = StringEnum(STUDIO_SESSION_STATUSES, {
  description:
    'scheduled (default), live, ended, cancelled. A cancelled session frees its studio; any status may be set',
});

const Title = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const Notes = Nullable(Type.String({ maxLength: 10_000 }));
const StudioId = Nullable({
  ...Id,
  description:
    'A studio of the organisation the team belongs to: the session books it for [startsAt, endsAt); ' +
    'another booking of the room overlapping that time answers 409. null frees it',
});
const CampId = Nullable({ ...Id, description: "A camp of the team's organisation; null for none" });

export const Session = Type.Object(
  {
    id: Id,
    teamId: Id,
    title: Type.String(),
    startsAt: Timestamp,
    endsAt: Timestamp,
    studioId: Nullable(Id),
    campId: Nullable(Id),
    status: Status,
    notes: Nullable(Type.String()),
    createdBy: Nullable(Uuid),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'StudioSession',
    description: 'A studio session of a team; with a studio, a booking of [startsAt, endsAt)',
    examples: [
      {
        id: EXAMPLE.sessionId,
        teamId: EXAMPLE.teamId,
        title: 'Night Drive – lead vocals',
        startsAt: EXAMPLE.startsAt,
        endsAt: EXAMPLE.endsAt,
        studioId: EXAMPLE.studioId,
        campId: null,
        status: 'scheduled',
        notes: 'Luna Vale sings the lead; bring the lyric sheet of the second verse',
        createdBy: EXAMPLE.ownerId,
        createdAt: EXAMPLE.createdAt,
        updatedAt: EXAMPLE.updatedAt,
      },
    ],
  },
);
export const SessionPage = Page(Session);
/** The list of sessions, which counts them on request: named apart from the page of the lists that do not. */
export const SessionListPage = { ...CountedPage(Session), title: 'StudioSessionListPage' };

export const CreateSessionBody = Type.Object(
  {
    teamId: Id,
    title: Title,
    startsAt: TimestampInput,
    endsAt: Type.Optional({
      ...TimestampInput,
      description: `After startsAt; default startsAt + ${DEFAULT_SESSION_HOURS} h`,
    }),
    studioId: Type.Optional(StudioId),
    campId: Type.Optional(CampId),
    notes: Type.Optional(Notes),
  },
  {
    title: 'StudioSessionCreate',
    examples: [
      {
        teamId: EXAMPLE.teamId,
        title: 'Night Drive – lead vocals',
        startsAt: EXAMPLE.startsAt,
        endsAt: EXAMPLE.endsAt,
        studioId: EXAMPLE.studioId,
        notes: 'Luna Vale sings the lead; bring the lyric sheet of the second verse',
      },
    ],
  },
);

export const SessionPatchBody = Type.Object(
  {
    teamId: OptionalTeamId,
    title: Type.Optional(Title),
    startsAt: Type.Optional(TimestampInput),
    endsAt: Type.Optional(TimestampInput),
    studioId: Type.Optional(StudioId),
    campId: Type.Optional(CampId),
    notes: Type.Optional(Notes),
    status: Type.Optional(Status),
  },
  {
    title: 'StudioSessionUpdate',
    minProperties: 1,
    examples: [{ teamId: EXAMPLE.teamId, endsAt: '2026-03-14T14:30:00.000Z', status: 'live' }],
    description:
      'Only the fields given change; endsAt must stay after startsAt. Changing times or studio of a booking ' +
      'emits booking.updated; cancelling it (status cancelled, or studioId null) booking.cancelled',
  },
);

export const DeleteSessionQuery = Type.Object({ teamId: OptionalTeamId });

export const ListQuery = Type.Object({
  teamId: Type.Optional({
    ...Id,
    description:
      "Only this team's sessions (404 when the caller is not in it); default every team of the caller",
  }),
  from: Type.Optional({ ...TimestampInput, description: 'Only sessions starting at or after this instant' }),
  to: Type.Optional({ ...TimestampInput, description: 'Only sessions starting before this instant' }),
  status: Type.Optional(Status),
  ...PageQuery,
  ...CountQuery,
});

export const LiveQuery = Type.Object(PageQuery);
