import type { ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import type { StreamCloseReason } from './event-types.ts';
import type { StreamEvent } from './events.repository.ts';

/** How long a stream that was ended may take to hand its last bytes over before its socket is cut. */
const LINGER_MS = 5_000;

/** What a client reconnecting after the stream ended should wait, in milliseconds (the `retry:` field). */
export const RETRY_MS = 3_000;

const frames = new WeakMap<StreamEvent, string>();

/** The Server-Sent Events frame of an event (its id: its position), made once however many streams it goes to. */
export function frameOf(event: StreamEvent): string {
  let frame = frames.get(event);
  if (frame === undefined) {
    const data = {
      id: String(event.position),
      type: event.type,
      ...(event.threadId === null ? {} : { threadId: event.threadId }),
      ...(event.sessionId === null ? {} : { sessionId: event.sessionId }),
      createdAt: event.createdAt,
      data: event.payload,
    };
    // JSON has no raw line breaks, so one `data:` line holds it.
    frame = `id: ${event.position}\nevent: ${event.type}\ndata: ${JSON.stringify(data)}\n\n`;
    frames.set(event, frame);
  }
  return frame;
}

/** A frame without an id: about the stream itself, it leaves the client's Last-Event-ID as it was. */
export function noticeFrame(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

type Options = {
  userId: string;
  sessionId: string;
  /** The stream's row among every process's open streams (stream-slots.ts). */
  streamId?: number;
  /** Bytes a client may leave unread before it is dropped. */
  maxBufferBytes: number;
};

/**
 * One client's event stream. Until `goLive` it replays missed events and holds live ones back; then live
 * events are written as they come. Positions only rise on a stream: an event at or before the last one
 * written (or the client's Last-Event-ID) is never written again. A client that does not read (its unsent bytes pass the cap) is sent a
 * last `stream.closed` and dropped, so a slow reader never holds more than the cap.
 */
export class SseConnection {
  readonly userId: string;
  readonly sessionId: string;
  readonly streamId: number | undefined;
  private live = false;
  private held: StreamEvent[] = [];
  /** The position of the last event written, or of the client's Last-Event-ID. */
  private last = 0;
  private ended = false;
  private readonly closeHandlers: (() => void)[] = [];

  constructor(
    private readonly out: Writable & Partial<Pick<ServerResponse, 'writeHead'>>,
    private readonly options: Options,
  ) {
    this.userId = options.userId;
    this.sessionId = options.sessionId;
    this.streamId = options.streamId;
    out.once('close', () => this.finish());
  }

  get closed(): boolean {
    return this.ended;
  }

  onClose(handler: () => void): void {
    if (this.ended) handler();
    else this.closeHandlers.push(handler);
  }

  /** Writes the response head and the reconnect delay. */
  open(headers: Record<string, string | number | string[]>): void {
    this.out.writeHead?.(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      // Once a stream ends its connection goes too, so a shutdown is not kept waiting by idle sockets.
      connection: 'close',
      ...headers,
    });
    this.write(`retry: ${RETRY_MS}\n\n`);
  }

  /** Events at or before `position` the client has: a resume starts after them. */
  resumeAfter(position: number): void {
    this.last = Math.max(this.last, position);
  }

  /** A live event for this client: written now, or held until the replay is over. */
  deliver(event: StreamEvent): void {
    if (this.ended) return;
    if (this.live) {
      this.send(event);
      return;
    }
    this.held.push(event);
    // Held events count against the cap like unsent bytes: a replay that never ends cannot hold them all.
    if (this.held.length > this.options.maxBufferBytes / 64) this.drop();
  }

  /** Replays missed events in order, waiting for the client to read when its buffer is full. */
  async replay(events: StreamEvent[]): Promise<void> {
    for (const event of events) {
      if (this.ended) return;
      this.send(event);
      if (this.out.writableNeedDrain) await this.drained();
    }
  }

  /** Ends the replay: live events held meanwhile follow, those the replay already sent are skipped. */
  goLive(): void {
    this.live = true;
    for (const event of this.held) this.send(event);
    this.held = [];
  }

  private send(event: StreamEvent): void {
    if (event.position <= this.last) return;
    this.last = event.position;
    this.write(frameOf(event));
  }

  notice(type: string, data: Record<string, unknown>): void {
    this.write(noticeFrame(type, data));
  }

  heartbeat(): void {
    this.write(': heartbeat\n\n');
  }

  /** Ends the stream, telling the client why when there is a reason. */
  close(reason?: StreamCloseReason): void {
    if (this.ended) return;
    if (reason) this.out.write(noticeFrame('stream.closed', { reason }));
    this.end();
  }

  private write(chunk: string): void {
    if (this.ended) return;
    this.out.write(chunk);
    if (this.out.writableLength > this.options.maxBufferBytes) this.drop();
  }

  private drop(): void {
    this.close('slow_consumer');
  }

  private end(): void {
    this.out.end();
    const linger = setTimeout(() => this.out.destroy(), LINGER_MS);
    linger.unref();
    this.out.once('close', () => clearTimeout(linger));
    this.finish();
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.out.off('drain', done);
        this.out.off('close', done);
        resolve();
      };
      this.out.once('drain', done);
      this.out.once('close', done);
    });
  }

  private finish(): void {
    this.ended = true;
    this.held = [];
    for (const handler of this.closeHandlers.splice(0)) handler();
  }
}
