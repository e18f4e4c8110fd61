import { beforeAll, describe, expect, it } from 'vitest';
import { markEmailVerified } from '../../../test/helpers/account.ts';
import { TestClock, type TestTeam, type TestUser, useTestContext } from '../../../test/helpers/context.ts';
import { openSse, type SseEvent, type SseStream } from '../chat/fixtures/sse-client.ts';
import { sessionHelpers } from './sessions.test-support.ts';

const clock = new TestClock(Date.parse('2031-06-01T12:00:00.000Z'));
const ctx = useTestContext({ clock });
const { newSession } = sessionHelpers(ctx);

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
async function call(method: Method, url: string, user: TestUser, payload?: object) {
  const res = await ctx.request({ method, url, token: user.token, ...(payload ? { payload } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.body ? res.json() : null;
}

let base = '';
let team: TestTeam;
let member: TestUser;
let guest: TestUser;
let outsider: TestTeam;
let sessionId: number;
let markers: string;
let ownMarkers: string;

/** A running recording of `session` of `onTeam`; answers the url of its markers. */
async function recording(onTeam: TestTeam, session: number) {
  const live = await call('POST', `/api/v1/sessions/${session}/recordings/live`, onTeam.owner, {
    teamId: onTeam.id,
  });
  return `/api/v1/sessions/${session}/recordings/${live.id}/markers`;
}

beforeAll(async () => {
  base = `${await ctx.app.listen({ port: 0, host: '127.0.0.1' })}/api/v1/chat/events`;
  team = await ctx.newTeam();
  member = await ctx.addMember(team);
  guest = await ctx.newUser();
  await markEmailVerified(ctx, guest); // invited by address: only a verified one claims it
  outsider = await ctx.newTeam();
  sessionId = (await newSession(team)).id;
  markers = await recording(team, sessionId);
  ownMarkers = await recording(outsider, (await newSession(outsider)).id);
});

const open = async (user: TestUser, headers: Record<string, string> = {}) => {
  const s = await openSse(base, user.token, headers);
  await s.next((e) => e.retry !== undefined);
  return s;
};
const bodyOf = (event: SseEvent) => JSON.parse(event.data ?? '{}');
const ofType = (type: string) => (event: SseEvent) => event.event === type;
const place = (url: string, by: TestTeam, label: string) =>
  call('POST', url, by.owner, { teamId: by.id, label, positionSeconds: 0 });
/** Session events a stream got so far: `type sessionId`. */
const sessionEvents = (s: SseStream) =>
  s.events().flatMap((e) => (e.body.sessionId ? [`${e.event} ${e.body.sessionId}`] : []));

async function within<T>(streams: SseStream[], run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } finally {
    for (const s of streams) s.close();
  }
}

describe('session events on the chat stream', () => {
  it('sends marker events to members, and not to people the session does not concern', async () => {
    const [mine, theirs] = [await open(member), await open(outsider.owner)];
    await within([mine, theirs], async () => {
      const marker = await place(markers, team, 'Chorus');
      const event = await mine.next(ofType('session.marker.created'));
      expect(bodyOf(event)).toEqual({
        id: event.id,
        type: 'session.marker.created',
        sessionId,
        createdAt: clock.now().toISOString(),
        data: { recordingId: marker.recordingId, markerId: marker.id },
      });
      // The outsider's own marker, written after: their stream carries it and nothing before it.
      const own = await place(ownMarkers, outsider, 'Theirs');
      const theirEvent = await theirs.next(ofType('session.marker.created'));
      expect(bodyOf(theirEvent).data.markerId).toBe(own.id);
      expect(Number(theirEvent.id)).toBeGreaterThan(Number(event.id));
      expect(sessionEvents(theirs)).toEqual([`session.marker.created ${bodyOf(theirEvent).sessionId}`]);
    });
  });

  it('tells an invited person of participant changes, and of markers once they accept', async () => {
    const s = await open(guest);
    const watcher = await open(member);
    await within([s, watcher], async () => {
      const invited = await call('POST', `/api/v1/sessions/${sessionId}/participants`, team.owner, {
        email: guest.email,
      });
      expect(bodyOf(await s.next(ofType('session.participant.added'))).data).toEqual({
        participantId: invited.id,
      });
      // Who gets an event is decided when it is delivered; one delivery serves every stream of this
      // process, so once a member has it, the guest was passed over before accepting.
      const early = await place(markers, team, 'Not yet');
      await watcher.next((e) => e.event === 'session.marker.created' && bodyOf(e).data.markerId === early.id);
      await call('POST', `/api/v1/sessions/${sessionId}/respond`, guest, {
        accept: true,
        participantId: invited.id,
      });
      expect(bodyOf(await s.next(ofType('session.participant.updated'))).data).toEqual({
        participantId: invited.id,
        status: 'accepted',
      });
      const marker = await place(markers, team, 'Now');
      expect(bodyOf(await s.next(ofType('session.marker.created'))).data.markerId).toBe(marker.id);
      expect(sessionEvents(s)).toEqual([
        `session.participant.added ${sessionId}`,
        `session.participant.updated ${sessionId}`,
        `session.marker.created ${sessionId}`,
      ]);
    });
  });

  it('replays missed session events after Last-Event-ID to those who may read the session', async () => {
    const first = await open(member);
    const since = await within([first], async () => {
      await place(markers, team, 'Before');
      return (await first.next(ofType('session.marker.created'))).id!;
    });
    const missed = await place(markers, team, 'Missed');
    const canvas = await ctx.request({
      method: 'PUT',
      url: `/api/v1/sessions/${sessionId}/canvas`,
      token: member.token,
      headers: { 'if-match': '0' },
      payload: { content: { lyrics: 'la' } },
    });
    expect(canvas.statusCode, canvas.body).toBe(200);
    const again = await open(member, { 'last-event-id': since });
    const outsiderAgain = await open(outsider.owner, { 'last-event-id': since });
    await within([again, outsiderAgain], async () => {
      const replayed = await again.next(ofType('session.marker.created'));
      expect(bodyOf(replayed).data.markerId).toBe(missed.id);
      expect(bodyOf(await again.next(ofType('session.canvas.updated'))).data).toEqual({ version: 1 });
      const own = await place(ownMarkers, outsider, 'Later');
      expect(bodyOf(await outsiderAgain.next(ofType('session.marker.created'))).data.markerId).toBe(own.id);
      expect(sessionEvents(outsiderAgain)).toHaveLength(1);
    });
  });

  it('tells a removed participant they were removed, and nothing of the session after', async () => {
    const removedGuest = await ctx.newUser();
    await markEmailVerified(ctx, removedGuest); // invited by address: only a verified one claims it
    const invited = await call('POST', `/api/v1/sessions/${sessionId}/participants`, team.owner, {
      email: removedGuest.email,
    });
    await call('POST', `/api/v1/sessions/${sessionId}/respond`, removedGuest, {
      accept: true,
      participantId: invited.id,
    });
    const s = await open(removedGuest);
    const watcher = await open(member);
    await within([s, watcher], async () => {
      await call('DELETE', `/api/v1/sessions/${sessionId}/participants/${invited.id}`, team.owner);
      expect(bodyOf(await s.next(ofType('session.participant.removed'))).data).toEqual({
        participantId: invited.id,
      });
      const after = await place(markers, team, 'After');
      await watcher.next((e) => e.event === 'session.marker.created' && bodyOf(e).data.markerId === after.id);
      // Who gets an event is decided when it is delivered: the guest's own acceptance, written before the
      // stream opened, may still reach it. Nothing of the session may follow the removal.
      const events = sessionEvents(s);
      const removed = `session.participant.removed ${sessionId}`;
      expect(events.slice(events.indexOf(removed))).toEqual([removed]);
      expect(events.slice(0, events.indexOf(removed))).toEqual(
        events.includes(`session.participant.updated ${sessionId}`)
          ? [`session.participant.updated ${sessionId}`]
          : [],
      );
    });
  });
});
