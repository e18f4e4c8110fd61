import { Type } from '@sinclair/typebox';
import { PARTICIPANT_STATUSES } from '../../../db/schema/index.ts';
import { exactlyOneOf, Id, Page, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { EXAMPLE, Nullable, OptionalTeamId, SessionParams, TeamQuery } from '../sessions.schemas.ts';

export const ParticipantParams = Type.Object({ ...SessionParams.properties, participantId: Id });

const Status = StringEnum(PARTICIPANT_STATUSES, {
  description: 'invited until answered; accepted or declined (an answer may be changed)',
});

export const Participant = Type.Object(
  {
    id: Id,
    sessionId: Id,
    userId: Nullable({ ...Uuid, description: 'The user; set on an e-mail invitation once it is answered' }),
    email: Nullable(Type.String({ description: 'The address of an e-mail invitation' })),
    name: Nullable(Type.String({ description: "The name given at the invitation, else the user's name" })),
    status: Status,
    invitedBy: Nullable(Uuid),
    respondedAt: Nullable(Timestamp),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'SessionParticipant',
    description: 'Someone invited to a session: a user, or anyone by e-mail',
    examples: [
      {
        id: 301,
        sessionId: EXAMPLE.sessionId,
        userId: EXAMPLE.guestId,
        email: null,
        name: 'Maya Reyes',
        status: 'accepted',
        invitedBy: EXAMPLE.ownerId,
        respondedAt: '2026-03-03T08:15:00.000Z',
        createdAt: EXAMPLE.updatedAt,
        updatedAt: '2026-03-03T08:15:00.000Z',
      },
    ],
  },
);
export const ParticipantPage = Page(Participant);

/** A participant as inviting and resending answer it: an e-mail invitation with its token, shown this once. */
export const InvitedParticipant = Type.Object(
  {
    ...Participant.properties,
    token: Type.Optional(
      Type.String({
        description:
          'E-mail invitations only: the single-use secret mailed to the address ' +
          '(POST /api/v1/session-invitations/{token}/accept); answered only here, replaced by a resend',
      }),
    ),
  },
  {
    title: 'InvitedSessionParticipant',
    description: `${Participant.description}, as the invitation answers it (e-mail invitations with their token)`,
    examples: [
      {
        id: 302,
        sessionId: EXAMPLE.sessionId,
        userId: null,
        email: 'maya@example.com',
        name: 'Maya Reyes',
        status: 'invited',
        invitedBy: EXAMPLE.ownerId,
        respondedAt: null,
        createdAt: EXAMPLE.updatedAt,
        updatedAt: EXAMPLE.updatedAt,
        token: 'c2Vzc2lvbi1pbnZpdGF0aW9uLXRva2VuLTQy',
      },
    ],
  },
);

export const ResendBody = Type.Object(
  { teamId: OptionalTeamId },
  { title: 'SessionInvitationResend', examples: [{ teamId: EXAMPLE.teamId }] },
);

export const InvitationTokenParams = Type.Object({
  token: Type.String({
    maxLength: 128,
    pattern: '^[A-Za-z0-9_-]{16,128}$',
    description: 'The token of an e-mail invitation, as mailed',
  }),
});

export const InviteBody = Type.Object(
  {
    teamId: OptionalTeamId,
    userId: Type.Optional({ ...Uuid, description: 'A member of the session’s team' }),
    email: Type.Optional(
      Type.String({ format: 'email', maxLength: 320, description: 'Anyone, by e-mail address' }),
    ),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })),
  },
  {
    title: 'SessionParticipantInvite',
    ...exactlyOneOf('userId', 'email'),
    examples: [{ teamId: EXAMPLE.teamId, email: 'maya@example.com', name: 'Maya Reyes' }],
  },
);

export const RespondBody = Type.Object(
  {
    accept: Type.Boolean({ description: 'true: accepted; false: declined' }),
    participantId: { ...Id, description: 'The caller’s own invitation to this session' },
  },
  { title: 'SessionInvitationAnswer', examples: [{ accept: true, participantId: 301 }] },
);

export const RemoveParticipantQuery = Type.Object({ teamId: OptionalTeamId });

const INVITE_TOKEN_EXAMPLE = 'eyJzIjo0MiwidiI6MiwiaSI6MTc3MjQ0NjQwMDAwMH0.Vx3k9QmR2b7LwZp0aTgHcY4nJf8sUe1D';

export const InviteUrl = Type.Object(
  {
    url: Type.String({ description: 'POST here, signed in, to join the session (accepted at once)' }),
    token: Type.String({
      description: 'The signed token of the link: POST /api/v1/session-links/{token}/join',
    }),
    expiresAt: Timestamp,
  },
  {
    title: 'SessionInviteUrl',
    examples: [
      {
        url: `https://music.example.com/api/v1/session-links/${INVITE_TOKEN_EXAMPLE}/join`,
        token: INVITE_TOKEN_EXAMPLE,
        expiresAt: '2026-03-09T16:45:00.000Z',
      },
    ],
  },
);

/** The body of a rotation of join links: the session's team. */
export const RotateInviteUrlBody = Type.Object(
  { ...TeamQuery.properties },
  { title: 'SessionInviteUrlRotate', examples: [{ teamId: EXAMPLE.teamId }] },
);

export const JoinParams = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 256, description: 'The token of an invite-url answer' }),
});
