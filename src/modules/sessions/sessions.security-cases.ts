import type { TestContext, TestTeam } from '../../../test/helpers/context.ts';
import type { ExpectedAuthClasses, MatrixCase } from '../../../test/helpers/security-matrix.ts';
import { sessionHelpers } from './sessions.test-support.ts';

const S = '/api/v1/sessions';
const session = { auth: 'session', extension: false };
const extension = { auth: 'session', extension: true };

/** The auth class of every route of the area (the anonymous calendar feed apart): S as specified. */
export const EXPECTED: ExpectedAuthClasses = {
  [`GET ${S}`]: session,
  [`POST ${S}`]: session,
  [`GET ${S}/live`]: session,
  [`GET ${S}/upcoming`]: session,
  [`GET ${S}/{sessionId}`]: session,
  [`PATCH ${S}/{sessionId}`]: extension,
  [`DELETE ${S}/{sessionId}`]: extension,
  [`GET ${S}/{sessionId}/participants`]: session,
  [`POST ${S}/{sessionId}/participants`]: extension,
  [`DELETE ${S}/{sessionId}/participants/{participantId}`]: extension,
  [`POST ${S}/{sessionId}/respond`]: session,
  [`POST ${S}/{sessionId}/participants/{participantId}/resend`]: extension,
  'POST /api/v1/session-invitations/{token}/accept': extension,
  'POST /api/v1/session-invitations/{token}/decline': extension,
  [`GET ${S}/{sessionId}/invite-url`]: session,
  [`POST ${S}/{sessionId}/invite-url/rotate`]: extension,
  'POST /api/v1/session-links/{token}/join': extension,
  [`GET ${S}/{sessionId}/follow`]: session,
  [`POST ${S}/calendar/rotate`]: extension,
  [`GET ${S}/{sessionId}/files`]: session,
  [`POST ${S}/{sessionId}/files`]: session,
  [`POST ${S}/{sessionId}/files/{mediaId}/added`]: session,
  [`DELETE ${S}/{sessionId}/files/{mediaId}`]: session,
  [`GET ${S}/{sessionId}/files/{mediaId}/url`]: session,
  [`GET ${S}/{sessionId}/songs`]: session,
  [`POST ${S}/{sessionId}/songs`]: extension,
  [`DELETE ${S}/{sessionId}/songs/{trackId}`]: extension,
  [`GET ${S}/{sessionId}/recordings`]: session,
  [`POST ${S}/{sessionId}/recordings`]: session,
  [`POST ${S}/{sessionId}/recordings/upload-url`]: session,
  [`POST ${S}/{sessionId}/recordings/live`]: session,
  [`POST ${S}/{sessionId}/recordings/{recordingId}/stop`]: extension,
  [`GET ${S}/{sessionId}/recordings/{recordingId}/markers`]: session,
  [`POST ${S}/{sessionId}/recordings/{recordingId}/markers`]: session,
  [`GET ${S}/{sessionId}/recordings/{recordingId}/markers/export`]: extension,
  [`PATCH ${S}/{sessionId}/recordings/{recordingId}/markers/{markerId}`]: session,
  [`DELETE ${S}/{sessionId}/recordings/{recordingId}/markers/{markerId}`]: session,
  [`GET ${S}/{sessionId}/canvas`]: session,
  [`PUT ${S}/{sessionId}/canvas`]: extension,
};

type Built = { url: string; payload?: unknown };

/** The security-matrix cases of every route of the area, by sub-resource; each builds on a fresh session. */
export function sessionSecurityCases(ctx: TestContext) {
  const { newSession } = sessionHelpers(ctx);
  const as = (team: TestTeam, method: 'GET' | 'POST', url: string, payload?: object) =>
    ctx.request({ method, url, token: team.owner.token, ...(payload ? { payload } : {}) }).then((r) => {
      if (r.statusCode >= 300) throw new Error(`${method} ${url}: ${r.statusCode} ${r.body}`);
      return r.json();
    });
  /** A request about a fresh session of the team: `suffix` under it, with `?teamId=` unless `query` is false. */
  const inSession =
    (suffix: string, payload?: (team: TestTeam) => object, query = true) =>
    async (team: TestTeam): Promise<Built> => {
      const { id } = await newSession(team);
      return {
        url: `${S}/${id}${suffix}${query ? `?teamId=${team.id}` : ''}`,
        ...(payload ? { payload: payload(team) } : {}),
      };
    };
  const withRecording =
    (suffix: string, payload?: (team: TestTeam, markerId?: number) => object, marker = false) =>
    async (team: TestTeam): Promise<Built> => {
      const { id } = await newSession(team);
      const recording = await as(team, 'POST', `${S}/${id}/recordings/live`, { teamId: team.id });
      const base = `${S}/${id}/recordings/${recording.id}`;
      const made = marker
        ? await as(team, 'POST', `${base}/markers`, { teamId: team.id, label: 'x', positionSeconds: 1 })
        : undefined;
      return {
        url: `${base}${suffix.replace('{markerId}', String(made?.id))}`,
        ...(payload ? { payload: payload(team) } : {}),
      };
    };
  const withFile = (suffix: string) => async (team: TestTeam) => {
    const { id } = await newSession(team);
    const file = await as(team, 'POST', `${S}/${id}/files`, { fileName: 'a.txt', fileSize: 2 });
    return { url: `${S}/${id}/files/${file.id}${suffix}` };
  };
  const teamOf = (team: TestTeam) => ({ teamId: team.id });

  const sessions: MatrixCase[] = [
    { method: 'GET', path: S, build: (team) => ({ url: `${S}/?teamId=${team.id}` }) },
    {
      method: 'POST',
      path: S,
      build: (team) => ({
        url: `${S}/`,
        payload: { teamId: team.id, title: 'x', startsAt: '2031-01-01T10:00:00Z' },
      }),
    },
    { method: 'GET', path: `${S}/live`, teamScoped: false, build: () => ({ url: `${S}/live` }) },
    { method: 'GET', path: `${S}/upcoming`, build: (team) => ({ url: `${S}/upcoming?teamId=${team.id}` }) },
    { method: 'GET', path: `${S}/{sessionId}`, build: inSession('') },
    { method: 'PATCH', path: `${S}/{sessionId}`, build: inSession('', () => ({ title: 'y' }), false) },
    { method: 'DELETE', path: `${S}/{sessionId}`, build: inSession('', undefined, false) },
  ];

  const participants: MatrixCase[] = [
    { method: 'GET', path: `${S}/{sessionId}/participants`, build: inSession('/participants') },
    {
      method: 'POST',
      path: `${S}/{sessionId}/participants`,
      build: inSession('/participants', () => ({ email: 'guest@example.test' }), false),
    },
    {
      method: 'DELETE',
      path: `${S}/{sessionId}/participants/{participantId}`,
      build: async (team) => {
        const { id } = await newSession(team);
        const p = await as(team, 'POST', `${S}/${id}/participants`, { email: 'guest@example.test' });
        return { url: `${S}/${id}/participants/${p.id}` };
      },
    },
    {
      method: 'POST',
      path: `${S}/{sessionId}/respond`,
      build: async (team) => {
        const { id } = await newSession(team);
        const p = await as(team, 'POST', `${S}/${id}/participants`, { userId: team.owner.id });
        return { url: `${S}/${id}/respond`, payload: { accept: true, participantId: p.id } };
      },
    },
    {
      method: 'POST',
      path: `${S}/{sessionId}/participants/{participantId}/resend`,
      build: async (team) => {
        const { id } = await newSession(team);
        const p = await as(team, 'POST', `${S}/${id}/participants`, { email: 'guest@example.test' });
        return { url: `${S}/${id}/participants/${p.id}/resend`, payload: {} };
      },
    },
    ...(['accept', 'decline'] as const).map(
      (answer): MatrixCase => ({
        method: 'POST',
        path: `/api/v1/session-invitations/{token}/${answer}`,
        // The mailed token is the authority: whoever holds it answers, not a team membership.
        teamScoped: false,
        build: async (team) => {
          const { id } = await newSession(team);
          const p = await as(team, 'POST', `${S}/${id}/participants`, { email: 'guest@example.test' });
          return { url: `/api/v1/session-invitations/${p.token}/${answer}` };
        },
      }),
    ),
    { method: 'GET', path: `${S}/{sessionId}/invite-url`, build: inSession('/invite-url') },
    {
      method: 'POST',
      path: `${S}/{sessionId}/invite-url/rotate`,
      build: inSession('/invite-url/rotate', (team) => ({ teamId: team.id }), false),
    },
    {
      method: 'POST',
      path: '/api/v1/session-links/{token}/join',
      // Whoever holds a join link may join: the token is the authority, not a team membership.
      teamScoped: false,
      build: async (team) => {
        const { url } = await inSession('/invite-url')(team);
        const { token } = await as(team, 'GET', url);
        return { url: `/api/v1/session-links/${token}/join` };
      },
    },
  ];

  const calendar: MatrixCase[] = [
    { method: 'GET', path: `${S}/{sessionId}/follow`, build: inSession('/follow') },
    {
      method: 'POST',
      path: `${S}/calendar/rotate`,
      build: (team) => ({ url: `${S}/calendar/rotate`, payload: { teamId: team.id } }),
    },
  ];

  const files: MatrixCase[] = [
    { method: 'GET', path: `${S}/{sessionId}/files`, build: inSession('/files', undefined, false) },
    {
      method: 'POST',
      path: `${S}/{sessionId}/files`,
      build: inSession('/files', () => ({ fileName: 'a.txt', fileSize: 2 }), false),
    },
    { method: 'POST', path: `${S}/{sessionId}/files/{mediaId}/added`, build: withFile('/added') },
    { method: 'DELETE', path: `${S}/{sessionId}/files/{mediaId}`, build: withFile('') },
    { method: 'GET', path: `${S}/{sessionId}/files/{mediaId}/url`, build: withFile('/url') },
  ];

  const songs: MatrixCase[] = [
    { method: 'GET', path: `${S}/{sessionId}/songs`, build: inSession('/songs') },
    {
      method: 'POST',
      path: `${S}/{sessionId}/songs`,
      build: async (team) => {
        const track = await ctx.newTrack(team);
        return inSession('/songs', () => ({ trackId: track.id }), false)(team);
      },
    },
    {
      method: 'DELETE',
      path: `${S}/{sessionId}/songs/{trackId}`,
      build: async (team) => {
        const track = await ctx.newTrack(team);
        const { id } = await newSession(team);
        await as(team, 'POST', `${S}/${id}/songs`, { trackId: track.id });
        return { url: `${S}/${id}/songs/${track.id}` };
      },
    },
  ];

  const uploadBody = (team: TestTeam) => ({
    teamId: team.id,
    fileName: 'take.wav',
    fileSize: 10,
    contentType: 'audio/wav',
  });
  const recordings: MatrixCase[] = [
    { method: 'GET', path: `${S}/{sessionId}/recordings`, build: inSession('/recordings') },
    {
      method: 'POST',
      path: `${S}/{sessionId}/recordings`,
      build: async (team) => {
        const { id } = await newSession(team);
        const ticket = await as(team, 'POST', `${S}/${id}/recordings/upload-url`, uploadBody(team));
        return {
          url: `${S}/${id}/recordings`,
          payload: { ...uploadBody(team), pendingKey: ticket.pendingKey },
        };
      },
    },
    {
      method: 'POST',
      path: `${S}/{sessionId}/recordings/upload-url`,
      build: inSession('/recordings/upload-url', uploadBody, false),
    },
    {
      method: 'POST',
      path: `${S}/{sessionId}/recordings/live`,
      build: inSession('/recordings/live', teamOf, false),
    },
    {
      method: 'POST',
      path: `${S}/{sessionId}/recordings/{recordingId}/stop`,
      build: withRecording('/stop', teamOf),
    },
  ];

  const markers: MatrixCase[] = [
    {
      method: 'GET',
      path: `${S}/{sessionId}/recordings/{recordingId}/markers`,
      build: async (team) => {
        const built = await withRecording('/markers')(team);
        return { url: `${built.url}?teamId=${team.id}` };
      },
    },
    {
      method: 'POST',
      path: `${S}/{sessionId}/recordings/{recordingId}/markers`,
      build: withRecording('/markers', (team) => ({ teamId: team.id, label: 'Chorus', positionSeconds: 3 })),
    },
    {
      method: 'GET',
      path: `${S}/{sessionId}/recordings/{recordingId}/markers/export`,
      build: async (team) => {
        const built = await withRecording('/markers/export')(team);
        return { url: `${built.url}?teamId=${team.id}&format=reaper` };
      },
    },
    {
      method: 'PATCH',
      path: `${S}/{sessionId}/recordings/{recordingId}/markers/{markerId}`,
      build: withRecording('/markers/{markerId}', (team) => ({ teamId: team.id, label: 'Bridge' }), true),
    },
    {
      method: 'DELETE',
      path: `${S}/{sessionId}/recordings/{recordingId}/markers/{markerId}`,
      build: withRecording('/markers/{markerId}', teamOf, true),
    },
  ];

  const canvas: MatrixCase[] = [
    { method: 'GET', path: `${S}/{sessionId}/canvas`, build: inSession('/canvas') },
    {
      method: 'PUT',
      path: `${S}/{sessionId}/canvas`,
      build: inSession('/canvas', () => ({ content: { a: 1 } }), false),
    },
  ];

  return { sessions, participants, calendar, files, songs, recordings, markers, canvas };
}
