import { Type } from '@sinclair/typebox';
import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { errors } from '../../../shared/errors.ts';
import { Id, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { sessionOf } from '../../../shared/tenancy.ts';
import { SESSION_STREAM_TYPES } from '../../sessions/session-stream.ts';
import { StreamTicket, TicketQuery } from '../../stream-tickets/stream-tickets.schemas.ts';
import { TICKET_TTL_SECONDS } from '../../stream-tickets/stream-tickets.service.ts';
import { CHAT_EXAMPLE } from '../chat.schemas.ts';
import { sessionExtension } from '../route-auth.ts';
import { MAX_REPLAY_EVENTS } from './event-streams.ts';
import { CHAT_EVENT_TYPES, PERSONAL_EVENT_TYPES, STREAM_EVENT_TYPES } from './event-types.ts';
import { RETRY_MS } from './sse-connection.ts';
import { MAX_STREAMS_PER_USER } from './stream-slots.ts';

const EVENT_TYPES = [...CHAT_EVENT_TYPES, ...SESSION_STREAM_TYPES, ...PERSONAL_EVENT_TYPES];

/** The stream kind its tickets are for. */
const CHAT_STREAM = 'chat.events';

const EventId = Type.String({ pattern: '^[0-9]{1,15}$', maxLength: 15, description: 'An event id' });

const DESCRIPTION = [
  'Session token only (an API key gets 403 `session_required`), or a stream ticket (below).',
  'Server-Sent Events (text/event-stream) for every thread the caller sees (and studio sessions, below), from',
  'every server process.',
  'Each event is `id: <event id>`, `event: <type>` and one `data:` line of JSON',
  '`{id, type, threadId, createdAt, data}`. Types and their data:',
  'message.created and message.updated `{message}` (the message without reactions, which differ per person);',
  'message.deleted `{messageId, deletedAt}`; reaction.added and reaction.removed `{messageId, userId, emoji}`;',
  'typing `{userId, typing, expiresAt}`; read `{userId, lastReadMessageId, readAt}`;',
  'thread.created and thread.updated `{thread}` (without unreadCount, pinned, lastMessage);',
  'thread.deleted `{threadId}`; member.added `{userId, by}`; member.removed `{userId, by, reason: left|removed}`',
  '(the removed person gets this one, then nothing more of the thread).',
  'Studio sessions the caller may read (a member of the session’s team, or invited to it) add events that carry',
  '`sessionId` instead of `threadId`: session.participant.added `{participantId}`, session.participant.updated',
  '`{participantId, status}`, session.participant.removed `{participantId}` (participant events go to anyone',
  'invited; the others to members and to participants who accepted); session.marker.created and',
  'session.marker.deleted `{recordingId, markerId}`, session.marker.updated `{recordingId, markerId, fields}`;',
  'session.canvas.updated `{version}`. Read the thing itself through its endpoint.',
  'A new notification of the caller comes as notification.created `{notification}` (as',
  '`GET /api/v1/user/notification-feed` shows it), with neither threadId nor sessionId.',
  'Resume: send the last id received as the `Last-Event-ID` header (EventSource does this itself), or as the',
  '`lastEventId` query parameter where a client cannot set headers; every event after it that the caller may',
  'see now follows, in order, once, then live ones. Events are kept 24 hours; typing is not replayed. When some',
  'of the events after that id are no longer kept, the stream starts with `event: stream.gap`',
  '`{type, lastEventId, oldestEventId}` (reload threads and messages). Without either, the stream starts now.',
  `A resume replays at most ${MAX_REPLAY_EVENTS} events: when more were missed, none is replayed and the stream`,
  'starts with `event: stream.reset` `{type, lastEventId, maxReplayEvents}` (reload threads and messages), then',
  'live ones.',
  `A person holds at most ${MAX_STREAMS_PER_USER} streams open at once, over every server process: when another`,
  'opens, the oldest is ended with `stream.closed` (reason too_many_streams); do not reconnect that one.',
  `The stream opens with \`retry: ${RETRY_MS}\`. A \`: heartbeat\` comment comes every 15 seconds. Access is`,
  'checked for each event: someone removed from a thread (or from its team) stops getting its events at once.',
  'The service ends a stream with `event: stream.closed` `{type, reason}`: shutdown (reconnect),',
  'slow_consumer (the client did not read and its unread data passed the limit: reconnect with',
  'Last-Event-ID), session_ended (sign in again) or too_many_streams (a newer stream of the same person took',
  'its place). stream.* events carry no id, so they never move',
  'Last-Event-ID.',
  'Browsers: EventSource cannot send the Authorization header, so ask `POST /api/v1/chat/events/ticket` first',
  `and open the stream with \`?ticket=<ticket>\` instead (single use, valid ${TICKET_TTL_SECONDS} seconds; the stream`,
  'then belongs to the session that asked for the ticket). A reconnect needs a new ticket.',
  'Errors come before the stream opens, as JSON: 400 when lastEventId and Last-Event-ID differ (or are not',
  'event ids); 401 for an unknown, used or expired ticket, or one whose session ended; 503 while the',
  'database is down.',
].join(' ');

const MESSAGE_EVENT_EXAMPLE = {
  id: '81234',
  type: 'message.created',
  threadId: CHAT_EXAMPLE.threadId,
  createdAt: CHAT_EXAMPLE.sentAt,
  data: {
    message: {
      id: CHAT_EXAMPLE.messageId,
      threadId: CHAT_EXAMPLE.threadId,
      authorId: CHAT_EXAMPLE.authorId,
      botId: null,
      content: 'The new mix of Night Drive is up',
      createdAt: CHAT_EXAMPLE.sentAt,
      editedAt: null,
      deleted: false,
      mentions: [],
    },
  },
};
const CANVAS_EVENT_EXAMPLE = {
  id: '81235',
  type: 'session.canvas.updated',
  sessionId: 42,
  createdAt: '2026-03-14T10:12:00.000Z',
  data: { version: 3 },
};

/** The JSON of the `data:` line of an event with an id. */
const ChatStreamEvent = Type.Object(
  {
    id: { ...EventId, description: 'The event id, as the `id:` field: resume after it with Last-Event-ID' },
    type: Type.Unsafe<string>({
      type: 'string',
      enum: [...EVENT_TYPES],
      description: 'As the `event:` field',
    }),
    threadId: Type.Optional({ ...Uuid, description: 'The thread of a chat event' }),
    sessionId: Type.Optional({ ...Id, description: 'The studio session of a session.* event' }),
    createdAt: Timestamp,
    data: Type.Record(Type.String(), Type.Unknown(), {
      description: 'What the event type carries (see the operation): ids, or the message or thread itself',
    }),
  },
  {
    title: 'ChatStreamEvent',
    description: 'An event of the chat stream, as the JSON of its `data:` line',
    examples: [MESSAGE_EVENT_EXAMPLE, CANVAS_EVENT_EXAMPLE],
  },
);

/** The JSON of the `data:` line of an event about the stream itself (no id). */
const ChatStreamNotice = Type.Object(
  {
    type: Type.Unsafe<string>({
      type: 'string',
      enum: [...STREAM_EVENT_TYPES],
      description: 'As the `event:` field',
    }),
    reason: Type.Optional(
      Type.Unsafe<string>({
        type: 'string',
        enum: ['shutdown', 'slow_consumer', 'session_ended', 'too_many_streams'],
        description: 'stream.closed: why the service ended the stream',
      }),
    ),
    lastEventId: Type.Optional({
      ...EventId,
      description: 'stream.gap and stream.reset: the id the resume asked for',
    }),
    oldestEventId: Type.Optional(
      Type.Union([EventId, Type.Null()], { description: 'stream.gap: the oldest event still kept' }),
    ),
    maxReplayEvents: Type.Optional(
      Type.Integer({ description: 'stream.reset: the most events a resume replays' }),
    ),
  },
  {
    title: 'ChatStreamNotice',
    description: 'An event about the stream itself (stream.gap, stream.reset, stream.closed): it has no id',
    examples: [{ type: 'stream.closed', reason: 'shutdown' }],
  },
);

const STREAM_EXAMPLE = [
  `retry: ${RETRY_MS}`,
  '',
  `id: ${MESSAGE_EVENT_EXAMPLE.id}`,
  `event: ${MESSAGE_EVENT_EXAMPLE.type}`,
  `data: ${JSON.stringify(MESSAGE_EVENT_EXAMPLE)}`,
  '',
  ': heartbeat',
  '',
  `id: ${CANVAS_EVENT_EXAMPLE.id}`,
  `event: ${CANVAS_EVENT_EXAMPLE.type}`,
  `data: ${JSON.stringify(CANVAS_EVENT_EXAMPLE)}`,
  '',
  'event: stream.closed',
  `data: ${JSON.stringify({ type: 'stream.closed', reason: 'shutdown' })}`,
  '',
  '',
].join('\n');

const StreamResponse = {
  description:
    `The event stream (200 at once; events follow as they happen). ${EVENT_TYPES.length} event types: ` +
    `${EVENT_TYPES.join(', ')}; and, without an id, ${STREAM_EVENT_TYPES.join(', ')}. Each \`data:\` line is ` +
    'one JSON object: a ChatStreamEvent, or a ChatStreamNotice for the stream.* events (the contentSchema ' +
    'of the stream).',
  headers: {
    'cache-control': { type: 'string', description: 'no-store' },
  },
  content: {
    'text/event-stream': {
      schema: {
        type: 'string',
        contentMediaType: 'text/event-stream',
        description:
          'Server-Sent Events: `id:`, `event:` and one `data:` line per event; contentSchema is the JSON of ' +
          'one `data:` line',
        contentSchema: Type.Union([ChatStreamEvent, ChatStreamNotice]),
      },
      example: STREAM_EXAMPLE,
    },
  },
};

/** The real-time stream (extension). */
export async function chatEventsRoutes(app: App) {
  const chat = app.services.chat;
  // Open streams end before the server waits for its connections to close.
  app.addHook('preClose', async () => {
    chat.hub.closeAll('shutdown');
  });

  app.get(
    '/api/v1/chat/events',
    {
      config: { ...sessionExtension.config, streamTicket: CHAT_STREAM },
      // A HEAD request would open a stream that never sends anything.
      exposeHeadRoute: false,
      schema: {
        operationId: 'chat.events.stream',
        summary: 'Stream chat events as they happen (Server-Sent Events)',
        description: DESCRIPTION,
        querystring: Type.Object({ lastEventId: Type.Optional(EventId), ticket: TicketQuery }),
        headers: Type.Object({ 'last-event-id': Type.Optional(EventId) }, { additionalProperties: true }),
        response: { 200: StreamResponse },
      },
    },
    async (request, reply) => {
      const header = request.headers['last-event-id'];
      const query = request.query.lastEventId;
      if (typeof header === 'string' && query !== undefined && header !== query)
        throw errors.validation([
          { path: '/query/lastEventId', message: 'differs from the Last-Event-ID header; send one of them' },
        ]);
      const last = typeof header === 'string' ? header : query;
      await chat.streams.open(
        request,
        reply,
        principalOf(request),
        last === undefined ? undefined : Number(last),
      );
      return reply;
    },
  );

  app.post(
    '/api/v1/chat/events/ticket',
    {
      ...sessionExtension,
      schema: {
        operationId: 'chat.events.ticket',
        summary: 'Get a ticket that opens the chat event stream without a header (for EventSource)',
        description:
          'Session token only (an API key gets 403 `session_required`). ' +
          `A random ticket, valid ${TICKET_TTL_SECONDS} seconds and for one use, that stands for the caller's session ` +
          "when opening `GET /api/v1/chat/events?ticket=...`: browsers' EventSource cannot send the Authorization " +
          'header. Only its hash is stored; it works on any server process. Ask for a new one for each (re)connect.',
        response: { 201: StreamTicket },
      },
    },
    async (request, reply) => {
      const ticket = await app.services.streamTickets.issue(sessionOf(principalOf(request)), CHAT_STREAM);
      return reply.code(201).send(ticket);
    },
  );
}
