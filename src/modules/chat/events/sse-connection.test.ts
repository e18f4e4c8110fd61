import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from './events.repository.ts';
import { SseConnection } from './sse-connection.ts';

/** A client socket that takes the first chunk and then reads nothing until `unblock`. */
class StalledClient extends Writable {
  readonly chunks: string[] = [];
  private pending: (() => void) | undefined;
  maxBuffered = 0;

  constructor() {
    super({ highWaterMark: 1024, decodeStrings: false });
  }

  override _write(chunk: string, _encoding: BufferEncoding, done: () => void): void {
    this.chunks.push(String(chunk));
    this.pending = done;
  }

  override write(chunk: string): boolean {
    const ok = super.write(chunk);
    this.maxBuffered = Math.max(this.maxBuffered, this.writableLength);
    return ok;
  }

  unblock(): void {
    this._write = (chunk: string, _encoding: BufferEncoding, done: () => void) => {
      this.chunks.push(String(chunk));
      done();
    };
    this.pending?.();
  }
}

let nextId = 1;
const event = (size = 100): StreamEvent => ({
  position: nextId++,
  threadId: '0190a6e0-0000-7000-8000-000000000000',
  sessionId: null,
  type: 'message.created',
  payload: { text: 'x'.repeat(size) },
  recipients: null,
  createdAt: new Date(),
});

const CAP = 4096;

function connection(client: StalledClient) {
  return new SseConnection(client, { userId: 'u', sessionId: 's', maxBufferBytes: CAP });
}

describe('an event stream to one client', () => {
  it('drops a client that stops reading once its unread data passes the cap, with a last stream.closed', async () => {
    const client = new StalledClient();
    const stream = connection(client);
    stream.goLive();
    let delivered = 0;
    while (!stream.closed && delivered < 1_000) {
      stream.deliver(event());
      delivered++;
    }
    expect(stream.closed).toBe(true);
    expect(delivered).toBeLessThan(100);
    // Never more than the cap, one frame and the closing notice held for it.
    expect(client.maxBuffered).toBeLessThan(CAP + 1_000);
    stream.deliver(event());
    client.unblock();
    await new Promise((resolve) => client.once('finish', resolve));
    const text = client.chunks.join('');
    expect(
      text.endsWith('event: stream.closed\ndata: {"type":"stream.closed","reason":"slow_consumer"}\n\n'),
    ).toBe(true);
    expect(text.match(/^id: /gm)).toHaveLength(delivered);
  });

  it('holds live events during a replay and sends them after it, skipping what the replay sent', async () => {
    const client = new StalledClient();
    client.unblock();
    const stream = connection(client);
    const [a, b, c] = [event(1), event(1), event(1)];
    stream.deliver(b);
    stream.deliver(c);
    await stream.replay([a, b]);
    stream.goLive();
    const d = event(1);
    stream.deliver(d);
    const ids = client.chunks.join('').match(/^id: (\d+)$/gm);
    expect(ids).toEqual([a, b, c, d].map((e) => `id: ${e.position}`));
  });

  it('drops a client whose held events pass the cap while a replay lasts', () => {
    const client = new StalledClient();
    client.unblock();
    const stream = connection(client);
    for (let i = 0; i <= CAP / 64 && !stream.closed; i++) stream.deliver(event(1));
    expect(stream.closed).toBe(true);
    expect(client.chunks.join('')).toContain('"reason":"slow_consumer"');
  });

  it('never writes an event at or before the resume point or the last one written', async () => {
    const client = new StalledClient();
    client.unblock();
    const stream = connection(client);
    const [a, b, c, d] = [event(1), event(1), event(1), event(1)];
    stream.resumeAfter(a.position);
    stream.deliver(a);
    stream.deliver(d);
    await stream.replay([b, c]);
    stream.goLive();
    stream.deliver(c);
    const ids = client.chunks.join('').match(/^id: (\d+)$/gm);
    expect(ids).toEqual([b, c, d].map((e) => `id: ${e.position}`));
  });
});
