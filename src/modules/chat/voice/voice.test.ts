import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestTeam, type TestUser, useTestContext } from '../../../../test/helpers/context.ts';
import { chatMessages, domainEvents, files, pendingUploads } from '../../../db/schema/index.ts';
import { encodeWav, sine } from '../../../media/test-audio.ts';
import { chatHelpers } from '../chat.test-support.ts';
import { deleteUnusedVoiceNotes } from './voice-cleanup.ts';

const ctx = useTestContext();
const { call, expectOk, newThread, eventsAbout } = chatHelpers(ctx);

const WAV = encodeWav(sine({ sampleRate: 8000, seconds: 2, amplitude: 0.5 }), 8000, 'pcm16');

/** PUTs bytes to a signed upload URL of this app. */
async function upload(ticket: { uploadUrl: string; headers: Record<string, string> }, bytes: Buffer) {
  const url = new URL(ticket.uploadUrl);
  const res = await ctx.request({
    method: 'PUT',
    url: url.pathname + url.search,
    headers: ticket.headers,
    payload: bytes,
  });
  if (res.statusCode >= 300) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
}

async function download(signed: string) {
  const url = new URL(signed);
  return ctx.request({ method: 'GET', url: url.pathname + url.search });
}

let team: TestTeam;
let member: TestUser;
let outsider: TestTeam;
let threadId: string;

/** A voice message of `threadId` by `user`, uploaded and posted. */
async function voiceMessage(user: TestUser, content?: string) {
  const ticket = await expectOk('POST', `/api/v1/chat/threads/${threadId}/voice-upload`, user, {
    fileName: 'note.wav',
    contentType: 'audio/wav',
  });
  await upload(ticket, WAV);
  return expectOk('POST', `/api/v1/chat/threads/${threadId}/messages`, user, {
    voiceFileKey: ticket.fileKey,
    ...(content === undefined ? {} : { content }),
  });
}

beforeAll(async () => {
  team = await ctx.newTeam();
  member = await ctx.addMember(team, 'member');
  outsider = await ctx.newTeam();
  threadId = (await newThread(team)).id;
});

describe('chat voice notes', () => {
  it('issues an audio upload ticket and posts a message carrying the voice note', async () => {
    const ticket = await expectOk('POST', `/api/v1/chat/threads/${threadId}/voice-upload`, member, {
      fileName: 'note.wav',
      contentType: 'audio/wav',
    });
    expect(ticket).toMatchObject({ method: 'PUT', fileKey: expect.any(String), contentType: 'audio/wav' });
    await upload(ticket, WAV);
    const res = await call('POST', `/api/v1/chat/threads/${threadId}/messages`, member, {
      voiceFileKey: ticket.fileKey,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      authorId: member.id,
      content: '',
      voice: {
        contentType: 'audio/wav',
        durationSeconds: 2,
        transcript: null,
        transcriptStatus: 'none',
        url: expect.any(String),
      },
    });
    expect((await download(res.body.voice.url)).statusCode).toBe(200);
    // The file is the team's (quota) and the list shows the voice too.
    const [file] = await ctx.database.db.select().from(files).where(eq(files.key, res.body.voice.fileKey));
    expect(file).toMatchObject({ teamId: team.id, ownerType: 'chat_voice', ownerId: threadId });
    const list = await expectOk('GET', `/api/v1/chat/threads/${threadId}/messages`, team.owner);
    expect(list.items[0]).toMatchObject({ id: res.body.id, voice: { fileKey: res.body.voice.fileKey } });
    // The same upload does not register twice.
    const again = await call('POST', `/api/v1/chat/threads/${threadId}/messages`, member, {
      voiceFileKey: ticket.fileKey,
    });
    expect(again.status).toBe(404);
  });

  it('takes text with a voice note, and needs text without one', async () => {
    const voiced = await voiceMessage(member, 'listen to this');
    expect(voiced).toMatchObject({ content: 'listen to this', voice: { durationSeconds: 2 } });
    for (const payload of [{}, { content: '' }, { content: '   ' }]) {
      const res = await call('POST', `/api/v1/chat/threads/${threadId}/messages`, member, payload);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    const tooLong = await call('POST', `/api/v1/chat/threads/${threadId}/messages`, member, {
      content: 'x'.repeat(10_001),
    });
    expect(tooLong.status).toBe(400);
  });

  it('refuses other types, unknown keys and outsiders, changing nothing', async () => {
    const base = `/api/v1/chat/threads/${threadId}`;
    const before = await ctx.database.db.select({ id: chatMessages.id }).from(chatMessages);
    const image = await call('POST', `${base}/voice-upload`, member, {
      fileName: 'a.png',
      contentType: 'image/png',
    });
    expect(image.status).toBe(400);
    expect(image.body.code).toBe('unsupported_file_type');
    const bad = await call('POST', `${base}/voice-upload`, member, {
      fileName: 'a.wav',
      contentType: 'nonsense',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
    const extra = await call('POST', `${base}/voice-upload`, member, {
      fileName: 'a.wav',
      contentType: 'audio/wav',
      size: 3,
    });
    expect(extra.status).toBe(400);
    const unknown = await call('POST', `${base}/messages`, member, { voiceFileKey: 'pending/1/nothing' });
    expect(unknown.status).toBe(404);
    const stranger = await call('POST', `${base}/voice-upload`, outsider.owner, {
      fileName: 'a.wav',
      contentType: 'audio/wav',
    });
    expect(stranger.status).toBe(404);
    // A ticket of another thread does not register here.
    const other = (await newThread(team)).id;
    const ticket = await expectOk('POST', `/api/v1/chat/threads/${other}/voice-upload`, member, {
      fileName: 'n.wav',
      contentType: 'audio/wav',
    });
    await upload(ticket, WAV);
    expect((await call('POST', `${base}/messages`, member, { voiceFileKey: ticket.fileKey })).status).toBe(
      404,
    );
    const after = await ctx.database.db.select({ id: chatMessages.id }).from(chatMessages);
    expect(after.length).toBe(before.length);
  });

  it('answers 503 transcription_unavailable without a configured service, after the access checks', async () => {
    const message = await voiceMessage(member);
    const url = `/api/v1/chat/threads/${threadId}/messages/${message.id}/transcribe`;
    const res = await call('POST', url, member, { fileKey: message.voice.fileKey });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('transcription_unavailable');
    expect((await call('POST', url, member, { fileKey: 'other' })).status).toBe(404);
    expect((await call('POST', url, outsider.owner, { fileKey: message.voice.fileKey })).status).toBe(404);
    const poll = `/api/v1/chat/threads/${threadId}/messages/${message.id}/transcription`;
    expect((await call('GET', poll, member)).status).toBe(404);
  });

  it('saves a voice note as a track whose audio is a copy that outlives the thread', async () => {
    const thread = (await newThread(team)).id;
    const ticket = await expectOk('POST', `/api/v1/chat/threads/${thread}/voice-upload`, member, {
      fileName: 'idea',
      contentType: 'audio/wav',
    });
    await upload(ticket, WAV);
    const message = await expectOk('POST', `/api/v1/chat/threads/${thread}/messages`, member, {
      voiceFileKey: ticket.fileKey,
    });
    const url = `/api/v1/chat/threads/${thread}/messages/${message.id}/save-voice`;
    const body = { teamId: team.id, title: 'Hook idea', fileKey: message.voice.fileKey };
    expect((await call('POST', url, member, { ...body, teamId: outsider.id })).status).toBe(404);
    expect((await call('POST', url, member, { ...body, fileKey: 'nope' })).status).toBe(404);
    expect((await call('POST', url, outsider.owner, { ...body, teamId: outsider.id })).status).toBe(404);
    expect((await call('POST', url, member, { ...body, title: '' })).status).toBe(400);

    const res = await call('POST', url, member, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ title: 'Hook idea', teamId: team.id, versionId: expect.any(Number) });
    const trackId = res.body.id;
    expect(
      await ctx.database.db
        .select({ type: domainEvents.type })
        .from(domainEvents)
        .where(and(eq(domainEvents.subjectType, 'track'), eq(domainEvents.subjectId, String(trackId)))),
    ).toEqual(expect.arrayContaining([{ type: 'track.created' }]));

    // The thread goes with its messages; the track's audio stays.
    expect((await call('DELETE', `/api/v1/chat/threads/${thread}`, team.owner)).status).toBe(204);
    // The note itself goes with its thread (the cleanup job), bytes included.
    await deleteUnusedVoiceNotes(ctx.database.db, ctx.app.services.files);
    expect(await ctx.database.db.select().from(files).where(eq(files.key, message.voice.fileKey))).toEqual(
      [],
    );
    expect((await download(message.voice.url)).statusCode).toBe(404);
    const version = await expectOk(
      'GET',
      `/api/v1/tracks/${trackId}/versions/${res.body.versionId}/detail`,
      member,
    );
    expect(version.audio).toMatchObject({ contentType: 'audio/wav', facts: { durationSeconds: 2 } });
    expect(version.audio.fileName).toBe('idea.wav');
    const fetched = await download(version.audio.downloadUrl);
    expect(fetched.statusCode).toBe(200);
    expect(fetched.rawPayload.equals(WAV)).toBe(true);
  });

  it('records voice messages in the activity of the thread’s team', async () => {
    const message = await voiceMessage(member);
    const rows = await eventsAbout(message.id);
    expect(rows.map((e) => ({ type: e.type, teamId: e.teamId }))).toEqual([
      { type: 'created', teamId: team.id },
    ]);
  });

  it('deletes the note of a deleted message and keeps those still carried', async () => {
    const kept = await voiceMessage(member);
    const gone = await voiceMessage(member);
    await expectOk('DELETE', `/api/v1/chat/threads/${threadId}/messages/${gone.id}`, member);
    await deleteUnusedVoiceNotes(ctx.database.db, ctx.app.services.files);
    const keys = (await ctx.database.db.select({ key: files.key }).from(files)).map((f) => f.key);
    expect(keys).toContain(kept.voice.fileKey);
    expect(keys).not.toContain(gone.voice.fileKey);
    expect((await download(kept.voice.url)).statusCode).toBe(200);
  });
});

describe('the key of a voice note', () => {
  const ticketFor = (thread: string) =>
    expectOk('POST', `/api/v1/chat/threads/${thread}/voice-upload`, member, {
      fileName: 'note.wav',
      contentType: 'audio/wav',
    });

  it('is the same in the voice-upload answer and on the message, and transcribe and save-voice take it', async () => {
    const thread = (await newThread(team)).id;
    const ticket = await ticketFor(thread);
    await upload(ticket, WAV);
    const message = await expectOk('POST', `/api/v1/chat/threads/${thread}/messages`, member, {
      voiceFileKey: ticket.fileKey,
    });
    expect(message.voice.fileKey).toBe(ticket.fileKey);
    const base = `/api/v1/chat/threads/${thread}/messages/${message.id}`;
    // Past the key check: no transcription service is configured here.
    const transcribe = await call('POST', `${base}/transcribe`, member, { fileKey: ticket.fileKey });
    expect(transcribe.status, JSON.stringify(transcribe.body)).toBe(503);
    const saved = await call('POST', `${base}/save-voice`, member, {
      teamId: team.id,
      title: 'From the upload key',
      fileKey: ticket.fileKey,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.body).toMatchObject({ title: 'From the upload key', teamId: team.id });
    // Another message's key, another thread's, or an outsider: 404 as before.
    const other = await voiceMessage(member);
    expect((await call('POST', `${base}/transcribe`, member, { fileKey: other.voice.fileKey })).status).toBe(
      404,
    );
    expect(
      (await call('POST', `${base}/transcribe`, outsider.owner, { fileKey: ticket.fileKey })).status,
    ).toBe(404);
  });

  it('still registers a note from the key its bytes were PUT to (what voice-upload answered before)', async () => {
    const thread = (await newThread(team)).id;
    const ticket = await ticketFor(thread);
    await upload(ticket, WAV);
    const [pending] = await ctx.database.db
      .select({ key: pendingUploads.key })
      .from(pendingUploads)
      .where(eq(pendingUploads.finalKey, ticket.fileKey));
    expect(pending!.key).not.toBe(ticket.fileKey);
    const message = await expectOk('POST', `/api/v1/chat/threads/${thread}/messages`, member, {
      voiceFileKey: pending!.key,
    });
    expect(message.voice.fileKey).toBe(ticket.fileKey);
    // A key of this thread's upload cannot be used from another thread.
    const elsewhere = (await newThread(team)).id;
    const second = await ticketFor(thread);
    await upload(second, WAV);
    const stolen = await call('POST', `/api/v1/chat/threads/${elsewhere}/messages`, member, {
      voiceFileKey: second.fileKey,
    });
    expect(stolen.status).toBe(404);
  });
});
