import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestTeam } from '../../../../test/helpers/context.ts';
import { domainEvents } from '../../../db/schema/index.ts';
import { encodeWav, sine } from '../../../media/test-audio.ts';
import { chatHelpers } from '../chat.test-support.ts';

const WAV = encodeWav(sine({ sampleRate: 8000, seconds: 1, amplitude: 0.5 }), 8000, 'pcm16');

/** A stand-in for an OpenAI-compatible transcription service: checks the multipart request, answers `{text}`. */
let answer: { status: number; body: string } = {
  status: 200,
  body: JSON.stringify({ text: 'call Maya back' }),
};
const seen: { contentType: string; authorization: string | undefined; body: Buffer }[] = [];
const server: Server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    seen.push({
      contentType: req.headers['content-type'] ?? '',
      authorization: req.headers.authorization,
      body: Buffer.concat(chunks),
    });
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
  });
});

let ctx: TestContext & { close(): Promise<void> };
let team: TestTeam;
let threadId: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  ctx = await createTestContext({
    env: {
      TRANSCRIPTION_URL: `http://127.0.0.1:${port}/v1/audio/transcriptions`,
      TRANSCRIPTION_MODEL: 'whisper-test',
      TRANSCRIPTION_API_KEY: 'sk-test',
    },
  });
  team = await ctx.newTeam();
  threadId = (await chatHelpers(ctx).newThread(team)).id;
});

afterAll(async () => {
  await ctx?.close();
  await new Promise((resolve) => server.close(resolve));
});

async function voiceMessage() {
  const { expectOk } = chatHelpers(ctx);
  const ticket = await expectOk('POST', `/api/v1/chat/threads/${threadId}/voice-upload`, team.owner, {
    fileName: 'memo.wav',
    contentType: 'audio/wav',
  });
  const url = new URL(ticket.uploadUrl);
  const put = await ctx.request({
    method: 'PUT',
    url: url.pathname + url.search,
    headers: ticket.headers,
    payload: WAV,
  });
  expect(put.statusCode, put.body).toBe(200);
  return expectOk('POST', `/api/v1/chat/threads/${threadId}/messages`, team.owner, {
    voiceFileKey: ticket.fileKey,
  });
}

describe('chat transcription', () => {
  it('queues a job that posts the audio to the service and stores the transcript on the message', async () => {
    const { call } = chatHelpers(ctx);
    const message = await voiceMessage();
    const base = `/api/v1/chat/threads/${threadId}/messages/${message.id}`;
    const res = await call('POST', `${base}/transcribe`, team.owner, { fileKey: message.voice.fileKey });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({ id: expect.any(String), status: 'queued', messageId: message.id });
    const queued = await call('GET', `${base}/transcription`, team.owner);
    expect(queued.body).toMatchObject({ id: res.body.id, status: 'queued' });

    seen.length = 0;
    await ctx.app.services.jobs.runDue();
    expect(seen).toHaveLength(1);
    const request = seen[0]!;
    expect(request.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.authorization).toBe('Bearer sk-test');
    const text = request.body.toString('latin1');
    expect(text).toMatch(/name="model"\r\n\r\nwhisper-test\r\n/);
    expect(text).toMatch(/name="file"; filename="memo.wav"\r\nContent-Type: audio\/wav\r\n\r\nRIFF/);
    expect(request.body.includes(WAV)).toBe(true);

    const done = await call('GET', `${base}/transcription`, team.owner);
    expect(done.body).toMatchObject({ status: 'succeeded', transcript: 'call Maya back', error: null });
    const list = await call('GET', `/api/v1/chat/threads/${threadId}/messages`, team.owner);
    expect(list.body.items.find((m: { id: string }) => m.id === message.id).voice).toMatchObject({
      transcript: 'call Maya back',
      transcriptStatus: 'done',
    });
    const events = await ctx.database.db
      .select({ payload: domainEvents.payload })
      .from(domainEvents)
      .where(and(eq(domainEvents.threadId, threadId), eq(domainEvents.streamType, 'message.updated')))
      .orderBy(domainEvents.position);
    expect(events.at(-1)?.payload).toMatchObject({
      message: { id: message.id, voice: { transcript: 'call Maya back', transcriptStatus: 'done' } },
    });
  });

  it('fails the job with the reason when the service fails', async () => {
    const { call } = chatHelpers(ctx);
    const message = await voiceMessage();
    const base = `/api/v1/chat/threads/${threadId}/messages/${message.id}`;
    answer = { status: 500, body: '{"error":"boom"}' };
    try {
      const res = await call('POST', `${base}/transcribe`, team.owner, { fileKey: message.voice.fileKey });
      expect(res.status).toBe(202);
      await ctx.app.services.jobs.runDue();
    } finally {
      answer = { status: 200, body: JSON.stringify({ text: 'call Maya back' }) };
    }
    const failed = await call('GET', `${base}/transcription`, team.owner);
    expect(failed.body).toMatchObject({ status: 'failed', transcript: null });
    expect(failed.body.error).toContain('HTTP 500');
    const list = await call('GET', `/api/v1/chat/threads/${threadId}/messages`, team.owner);
    expect(list.body.items.find((m: { id: string }) => m.id === message.id).voice).toMatchObject({
      transcript: null,
      transcriptStatus: 'failed',
    });
    // Asking again starts a new job that succeeds.
    const again = await call('POST', `${base}/transcribe`, team.owner, { fileKey: message.voice.fileKey });
    expect(again.body.id).not.toBe(failed.body.id);
    await ctx.app.services.jobs.runDue();
    expect((await call('GET', `${base}/transcription`, team.owner)).body.status).toBe('succeeded');
  });
});
