import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { errorResponse, NoContent } from '../../../shared/schemas.ts';
import { acceptEmptyJsonBody, bodyMayBeLeftOut } from '../../users/empty-body.ts';
import { MEMBERS, SESSION_ONLY, session, sessionExtension, sessionLinkExtension } from '../route-auth.ts';
import { EmptyBody, SessionParams, TeamPageQuery, TeamQuery } from '../sessions.schemas.ts';
import {
  InvitationTokenParams,
  InviteBody,
  InvitedParticipant,
  InviteUrl,
  JoinParams,
  Participant,
  ParticipantPage,
  ParticipantParams,
  RemoveParticipantQuery,
  ResendBody,
  RespondBody,
  RotateInviteUrlBody,
} from './participants.schemas.ts';
import { INVITE_LINK_TTL_DAYS } from './participants.service.ts';

/** Participants of a session: list, invite, remove, answer, and join links. */
export async function participantsRoutes(app: App) {
  const participants = app.services.sessionParticipants;

  app.get(
    '/api/v1/sessions/:sessionId/participants',
    {
      ...session,
      schema: {
        operationId: 'sessions.participants.list',
        summary: 'The people invited to a session and their answers, in invitation order',
        description:
          `${SESSION_ONLY} Members of the session's team and everyone invited to it (whatever their answer) ` +
          "read it; teamId, when given, must be the session's team. Anyone else, or another teamId, gets " +
          '404. Keyset ' +
          'pages: pass nextCursor as cursor.',
        params: SessionParams,
        querystring: TeamPageQuery,
        response: { 200: ParticipantPage },
      },
    },
    async (request) => {
      const { teamId, ...page } = request.query;
      return participants.list(principalOf(request), request.params.sessionId, teamId, pageOf(page));
    },
  );

  app.post(
    '/api/v1/sessions/:sessionId/participants',
    {
      ...sessionExtension,
      schema: {
        operationId: 'sessions.participants.invite',
        summary: 'Invite a member of the team (userId) or anyone (email) to a session',
        description:
          `${SESSION_ONLY} ${MEMBERS} The invited answer with POST .../respond; someone who is not a member ` +
          'of the team reads the session and its participants, and once they accept, its files, songs, ' +
          'recordings, markers and canvas (never changing them). An e-mail invitation is mailed to the ' +
          'address with a link holding its `token` (also in this answer, shown this once): ' +
          'POST /api/v1/session-invitations/{token}/accept answers it. Emits session.participant.added on ' +
          'the event stream (GET /api/v1/chat/events) and a session_invitation notification to the invited ' +
          'user (or to the account whose verified address the invitation names). Errors: 400 without exactly ' +
          'one of userId and email; 404 when userId is not a member of the team; 409 when the person is ' +
          'invited already.',
        params: SessionParams,
        body: InviteBody,
        response: {
          201: InvitedParticipant,
          409: errorResponse('conflict: this person (user or address) is invited to the session already'),
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await participants.invite(principalOf(request), request.params.sessionId, request.body)),
  );

  app.delete(
    '/api/v1/sessions/:sessionId/participants/:participantId',
    {
      ...sessionExtension,
      schema: {
        operationId: 'sessions.participants.remove',
        summary: 'Take someone off a session (any member of the team)',
        description:
          `${SESSION_ONLY} ${MEMBERS} teamId, when given, must be the session's team (else 404). The removed ` +
          'person loses what the invitation let them read, and a join link does not bring them back (only a ' +
          'new invitation does). Emits session.participant.removed on the event stream, to the removed ' +
          'person too. 404 when the participant is not one of this session.',
        params: ParticipantParams,
        querystring: RemoveParticipantQuery,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { sessionId, participantId } = request.params;
      await participants.remove(principalOf(request), sessionId, participantId, request.query.teamId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/sessions/:sessionId/respond',
    {
      ...session,
      schema: {
        operationId: 'sessions.respond',
        summary: 'Accept or decline an invitation to a session (may be changed later)',
        description:
          `${SESSION_ONLY} Only the invited person answers: the invited user, or the signed-in user whose ` +
          'e-mail address an e-mail invitation names, once that address is verified (the invitation then ' +
          'names that user); an account whose address is not verified (a password sign-up) gets 403 ' +
          '`email_unverified` and may join through the session link instead. Anyone else who reads the ' +
          "session (its team's members, other invited people) gets 403 `forbidden`; anyone who does not, " +
          'and a participant of another session, 404. Emits session.participant.updated on the event stream. 409 when the caller holds two ' +
          'invitations to the session (by user and by address): answer the other one.',
        params: SessionParams,
        body: RespondBody,
        response: {
          200: Participant,
          403: errorResponse(
            'session_required (an API key), email_unverified (an e-mail invitation to an address the caller ' +
              'has not verified) or forbidden (another person’s invitation)',
          ),
          409: errorResponse(
            'conflict: the caller is invited to this session twice; answer the other invitation',
          ),
        },
      },
    },
    async (request) => participants.respond(principalOf(request), request.params.sessionId, request.body),
  );

  app.get(
    '/api/v1/sessions/:sessionId/invite-url',
    {
      ...session,
      schema: {
        operationId: 'sessions.inviteUrl',
        summary: 'A signed join link of a session',
        description:
          `${SESSION_ONLY} Members of the session's team (404 for anyone else, or another teamId). ` +
          `The link works for ${INVITE_LINK_TTL_DAYS} days, until the session's links are ` +
          'rotated (POST /api/v1/sessions/{sessionId}/invite-url/rotate): whoever POSTs it signed in becomes ' +
          'an accepted participant (POST /api/v1/session-links/{token}/join), except a participant removed ' +
          'from the session (until invited again) and a person who left the team after the link was made.',
        params: SessionParams,
        querystring: TeamQuery,
        response: { 200: InviteUrl },
      },
    },
    async (request) =>
      participants.inviteUrl(principalOf(request), request.params.sessionId, request.query.teamId),
  );

  app.post(
    '/api/v1/sessions/:sessionId/invite-url/rotate',
    {
      ...sessionExtension,
      ...bodyMayBeLeftOut,
      schema: {
        operationId: 'sessions.inviteUrl.rotate',
        summary: 'Revoke every join link of a session handed out so far, and answer a new one',
        description:
          `${SESSION_ONLY} Members of the session's team (404 for anyone else, or another teamId). Links ` +
          'made before answer 404 from then on; people who joined through them stay participants.',
        params: SessionParams,
        body: RotateInviteUrlBody,
        response: { 200: InviteUrl },
      },
    },
    async (request) =>
      participants.rotateLinks(principalOf(request), request.params.sessionId, request.body.teamId),
  );

  await app.register(async (scope: App) => {
    acceptEmptyJsonBody(scope);
    scope.post(
      '/api/v1/sessions/:sessionId/participants/:participantId/resend',
      {
        ...sessionExtension,
        schema: {
          operationId: 'sessions.participants.resend',
          summary: 'Mail an unanswered e-mail invitation again, with a new token (any member of the team)',
          description:
            `${SESSION_ONLY} ${MEMBERS} The link mailed before stops working. 404 for a participant of ` +
            'another session; 409 for one ' +
            'that is not an e-mail invitation nobody has answered; 429 (Retry-After) past 3 resends of one ' +
            'invitation or 30 resends of the team (its team invites included) per hour. Body optional.',
          params: ParticipantParams,
          body: ResendBody,
          response: {
            200: InvitedParticipant,
            409: errorResponse(
              'conflict: not an e-mail invitation nobody has answered yet (also when it was answered meanwhile)',
            ),
            429: errorResponse('Too many resends; see Retry-After'),
          },
        },
      },
      async (request) => {
        const { sessionId, participantId } = request.params;
        return participants.resend(principalOf(request), sessionId, participantId, request.body.teamId);
      },
    );

    for (const [answer, accept] of [
      ['accept', true],
      ['decline', false],
    ] as const)
      scope.post(
        `/api/v1/session-invitations/:token/${answer}`,
        {
          ...sessionLinkExtension,
          schema: {
            operationId: `sessions.invitations.${answer}`,
            summary: `${accept ? 'Accept' : 'Decline'} an e-mail invitation to a session with its mailed token`,
            description:
              `${SESSION_ONLY} The token is the proof: any signed-in account holding it answers, its address ` +
              'verified or not, and the invitation becomes that account’s (later changes of the answer: POST ' +
              '.../respond). The token works once. Emits session.participant.updated on the event stream. ' +
              '404 for an unknown, spent or replaced token (or a deleted session); 409 when you are invited ' +
              'to the session otherwise already. Takes no body (or `{}`).',
            params: InvitationTokenParams,
            body: EmptyBody,
            response: {
              200: Participant,
              409: errorResponse('You are invited to this session otherwise already'),
            },
          },
        },
        async (request) => participants.answerWithToken(principalOf(request), request.params.token, accept),
      );

    scope.post(
      '/api/v1/session-links/:token/join',
      {
        ...sessionLinkExtension,
        schema: {
          operationId: 'sessions.join',
          summary: 'Join a session through its link: the caller becomes an accepted participant',
          description:
            `${SESSION_ONLY} Anyone signed in who holds the link. ` +
            'An invitation the caller already has (by user or e-mail) is accepted; otherwise one is made. A link ' +
            'revoked by a rotation, or refused to the caller (removed from the session, or left the team since ' +
            'the link was made), is 404. ' +
            'Joining again answers the same participant. A tampered token is 403 invalid_signature, an ' +
            'expired one 403 url_expired, a deleted session 404. Emits session.participant.added on the ' +
            'event stream. 409 when the caller holds two invitations to the session (answer the other one), ' +
            'or when a simultaneous join of theirs got in the way (retry). Takes no body (or `{}`).',
          params: JoinParams,
          body: EmptyBody,
          response: {
            200: Participant,
            403: errorResponse(
              'session_required (an API key), invalid_signature (a tampered or truncated token) or ' +
                'url_expired (an expired link)',
            ),
            409: errorResponse(
              'conflict: the caller is invited to this session twice, or a simultaneous join got in the way',
            ),
          },
        },
      },
      async (request) => participants.join(principalOf(request), request.params.token),
    );
  });
}
