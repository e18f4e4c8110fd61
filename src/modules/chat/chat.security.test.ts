import { describe, it } from 'vitest';
import { type TestTeam, useTestContext } from '../../../test/helpers/context.ts';
import {
  describeSecurityMatrix,
  type ExpectedAuthClasses,
  expectAreaAuthClasses,
  type MatrixCase,
} from '../../../test/helpers/security-matrix.ts';
import { chatHelpers } from './chat.test-support.ts';

const ctx = useTestContext();
const { newThread, post, botAnswer } = chatHelpers(ctx);

/** A team thread of the team (by its owner) and `path` under it. */
const inThread =
  (path: string, payload?: object) =>
  async (team: TestTeam): Promise<{ url: string; payload?: unknown }> => {
    const thread = await newThread(team);
    return { url: `/api/v1/chat/threads/${thread.id}${path}`, ...(payload ? { payload } : {}) };
  };

/** A message of a team thread and `path` under it. */
const onMessage =
  (path: string, payload?: object) =>
  async (team: TestTeam): Promise<{ url: string; payload?: unknown }> => {
    const thread = await newThread(team);
    const message = await post(thread.id, team.owner, 'hello');
    return {
      url: `/api/v1/chat/threads/${thread.id}/messages/${message.id}${path}`,
      ...(payload ? { payload } : {}),
    };
  };

const teamQuery =
  (path: string, extra = '') =>
  (team: TestTeam) => ({
    url: `${path}?teamId=${team.id}${extra}`,
  });

const cases: MatrixCase[] = [
  { method: 'GET', path: '/api/v1/chat/threads', build: teamQuery('/api/v1/chat/threads/') },
  {
    method: 'POST',
    path: '/api/v1/chat/threads',
    build: (team) => ({
      url: '/api/v1/chat/threads/',
      payload: { type: 'team', teamIds: [team.id], name: 'x' },
    }),
  },
  { method: 'GET', path: '/api/v1/chat/threads/{threadId}', build: inThread('') },
  { method: 'PATCH', path: '/api/v1/chat/threads/{threadId}', build: inThread('', { name: 'renamed' }) },
  { method: 'DELETE', path: '/api/v1/chat/threads/{threadId}', build: inThread('') },
  { method: 'POST', path: '/api/v1/chat/threads/{threadId}/leave', build: inThread('/leave') },
  {
    method: 'POST',
    path: '/api/v1/chat/threads/{threadId}/members',
    build: async (team) => {
      const thread = await newThread(team, { type: 'group' });
      return { url: `/api/v1/chat/threads/${thread.id}/members`, payload: { memberIds: [team.owner.id] } };
    },
  },
  {
    method: 'DELETE',
    path: '/api/v1/chat/threads/{threadId}/members/{userId}',
    build: async (team) => {
      const member = await ctx.addMember(team, 'member');
      const thread = await newThread(team, { type: 'group', memberIds: [member.id] });
      return { url: `/api/v1/chat/threads/${thread.id}/members/${member.id}` };
    },
  },
  { method: 'GET', path: '/api/v1/chat/threads/{threadId}/messages', build: inThread('/messages') },
  {
    method: 'POST',
    path: '/api/v1/chat/threads/{threadId}/messages',
    build: inThread('/messages', { content: 'hi' }),
  },
  {
    method: 'PATCH',
    path: '/api/v1/chat/threads/{threadId}/messages/{messageId}',
    build: onMessage('', { content: 'edited' }),
  },
  { method: 'DELETE', path: '/api/v1/chat/threads/{threadId}/messages/{messageId}', build: onMessage('') },
  {
    method: 'POST',
    path: '/api/v1/chat/threads/{threadId}/messages/{messageId}/reactions',
    build: onMessage('/reactions', { emoji: '👍' }),
  },
  {
    method: 'DELETE',
    path: '/api/v1/chat/threads/{threadId}/messages/{messageId}/reactions/{emoji}',
    build: onMessage(`/reactions/${encodeURIComponent('👍')}`),
  },
  { method: 'GET', path: '/api/v1/chat/threads/{threadId}/typing', build: inThread('/typing') },
  {
    method: 'POST',
    path: '/api/v1/chat/threads/{threadId}/typing',
    build: inThread('/typing', { typing: true }),
  },
  {
    method: 'POST',
    path: '/api/v1/chat/threads/{threadId}/read',
    build: async (team) => {
      const built = await onMessage('')(team);
      const [, threadId, messageId] = /threads\/([^/]+)\/messages\/([^/]+)/.exec(built.url)!;
      return { url: `/api/v1/chat/threads/${threadId}/read`, payload: { lastReadMessageId: messageId } };
    },
  },
  { method: 'GET', path: '/api/v1/chat/threads/{threadId}/read-receipts', build: inThread('/read-receipts') },
  { method: 'POST', path: '/api/v1/chat/threads/{threadId}/pin', build: inThread('/pin', { pinned: true }) },
  {
    method: 'GET',
    path: '/api/v1/chat/mention-search',
    build: teamQuery('/api/v1/chat/mention-search', '&q=a'),
  },
  { method: 'GET', path: '/api/v1/chat/people', build: teamQuery('/api/v1/chat/people') },
  {
    method: 'GET',
    path: '/api/v1/chat/mention-context',
    build: (team) => ({
      url: `/api/v1/chat/mention-context?teamId=${team.id}&kind=user&id=${team.owner.id}`,
    }),
  },
  {
    method: 'POST',
    path: '/api/v1/chat/threads/{threadId}/voice-upload',
    build: inThread('/voice-upload', { fileName: 'note.webm', contentType: 'audio/webm' }),
  },
  {
    method: 'POST',
    path: '/api/v1/chat/threads/{threadId}/messages/{messageId}/transcribe',
    build: onMessage('/transcribe', { fileKey: 'x' }),
  },
  {
    method: 'GET',
    path: '/api/v1/chat/threads/{threadId}/messages/{messageId}/transcription',
    build: onMessage('/transcription'),
  },
  {
    method: 'POST',
    path: '/api/v1/chat/threads/{threadId}/messages/{messageId}/save-voice',
    build: async (team) => ({
      ...(await onMessage('/save-voice')(team)),
      payload: { teamId: team.id, title: 'From a note', fileKey: 'x' },
    }),
  },
  { method: 'GET', path: '/api/v1/chat/bots', build: teamQuery('/api/v1/chat/bots') },
  {
    method: 'POST',
    path: '/api/v1/chat/bots/{botId}/open',
    build: (team) => ({ url: '/api/v1/chat/bots/assistant/open', payload: { teamId: team.id } }),
  },
  {
    method: 'GET',
    path: '/api/v1/chat/bots/{botId}/follow-ups',
    build: teamQuery('/api/v1/chat/bots/assistant/follow-ups'),
  },
  {
    method: 'DELETE',
    path: '/api/v1/chat/bots/{botId}/follow-ups/{taskId}',
    build: async (team) => {
      const thread = await ctx.request({
        method: 'POST',
        url: '/api/v1/chat/bots/assistant/open',
        token: team.owner.token,
        payload: { teamId: team.id },
      });
      const threadId = thread.json().id;
      const message = await post(threadId, team.owner, 'remind me to follow up with Maya tomorrow');
      await botAnswer(threadId, team.owner, message.id);
      const tasks = await ctx.request({
        method: 'GET',
        url: `/api/v1/chat/bots/assistant/follow-ups?teamId=${team.id}`,
        token: team.owner.token,
      });
      return { url: `/api/v1/chat/bots/assistant/follow-ups/${tasks.json().items[0].id}?teamId=${team.id}` };
    },
  },
  {
    method: 'POST',
    path: '/api/v1/follow-ups/draft',
    build: (team) => ({
      url: '/api/v1/follow-ups/draft',
      payload: { teamId: team.id, kind: 'follow_up', person: 'Maya', network: 'instagram', messages: [] },
    }),
  },
  // A signed-in caller gets an open stream (its access rules are in events.test.ts); here: tokens and keys.
  {
    method: 'GET',
    path: '/api/v1/chat/events',
    build: () => ({ url: '/api/v1/chat/events' }),
    teamScoped: false,
  },
  {
    method: 'POST',
    path: '/api/v1/chat/events/ticket',
    build: () => ({ url: '/api/v1/chat/events/ticket' }),
    teamScoped: false,
  },
];

const session = { auth: 'session', extension: false };
const sessionExtension = { auth: 'session', extension: true };

/** Every chat route is S: session tokens only. */
const EXPECTED: ExpectedAuthClasses = {
  'GET /api/v1/chat/threads': session,
  'POST /api/v1/chat/threads': session,
  'GET /api/v1/chat/threads/{threadId}': session,
  'PATCH /api/v1/chat/threads/{threadId}': session,
  'DELETE /api/v1/chat/threads/{threadId}': session,
  'POST /api/v1/chat/threads/{threadId}/leave': session,
  'POST /api/v1/chat/threads/{threadId}/members': session,
  'DELETE /api/v1/chat/threads/{threadId}/members/{userId}': session,
  'GET /api/v1/chat/threads/{threadId}/messages': session,
  'POST /api/v1/chat/threads/{threadId}/messages': session,
  'PATCH /api/v1/chat/threads/{threadId}/messages/{messageId}': session,
  'DELETE /api/v1/chat/threads/{threadId}/messages/{messageId}': session,
  'POST /api/v1/chat/threads/{threadId}/messages/{messageId}/reactions': session,
  'DELETE /api/v1/chat/threads/{threadId}/messages/{messageId}/reactions/{emoji}': sessionExtension,
  'GET /api/v1/chat/threads/{threadId}/typing': session,
  'POST /api/v1/chat/threads/{threadId}/typing': session,
  'POST /api/v1/chat/threads/{threadId}/read': session,
  'GET /api/v1/chat/threads/{threadId}/read-receipts': session,
  'POST /api/v1/chat/threads/{threadId}/pin': session,
  'GET /api/v1/chat/mention-search': session,
  'GET /api/v1/chat/people': session,
  'GET /api/v1/chat/mention-context': session,
  'GET /api/v1/chat/events': sessionExtension,
  'POST /api/v1/chat/events/ticket': sessionExtension,
  'POST /api/v1/chat/threads/{threadId}/voice-upload': session,
  'POST /api/v1/chat/threads/{threadId}/messages/{messageId}/transcribe': session,
  'GET /api/v1/chat/threads/{threadId}/messages/{messageId}/transcription': sessionExtension,
  'POST /api/v1/chat/threads/{threadId}/messages/{messageId}/save-voice': session,
  'GET /api/v1/chat/bots': session,
  'POST /api/v1/chat/bots/{botId}/open': session,
  'GET /api/v1/chat/bots/{botId}/follow-ups': session,
  'DELETE /api/v1/chat/bots/{botId}/follow-ups/{taskId}': session,
  'POST /api/v1/follow-ups/draft': session,
};

describe('chat area routes', () => {
  it('are all session-only, with the extensions flagged, and the matrix covers every one of them', async () => {
    await expectAreaAuthClasses(ctx, (r) => r.operationId.startsWith('chat.'), EXPECTED, cases);
  });
});

describeSecurityMatrix(ctx, cases);
