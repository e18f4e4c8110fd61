import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressGuard } from './address-guard.ts';
import { Receiver } from './fixtures/receiver.ts';
import { send } from './sender.ts';

const receiver = new Receiver();
const agent = new AddressGuard({ allowedHosts: ['127.0.0.1'] }).agent(10_000);
const never = new AbortController().signal;

beforeAll(async () => {
  await receiver.start();
});
afterAll(async () => {
  await agent.close();
  await receiver.close();
});

const post = (timeoutMs = 10_000, signal = never, url = receiver.url) =>
  send(agent, { url, body: '{"a":1}', headers: { 'content-type': 'application/json' } }, timeoutMs, signal);

describe('one POST to a receiver', () => {
  it('succeeds on any 2xx and fails on anything else, redirects included (not followed)', async () => {
    const cases: [number, boolean, string | null][] = [
      [200, true, null],
      [202, true, null],
      [204, true, null],
      [299, true, null],
      [301, false, 'redirect (HTTP 301) not followed'],
      [308, false, 'redirect (HTTP 308) not followed'],
      [404, false, 'HTTP 404'],
      [410, false, 'HTTP 410'],
      [500, false, 'HTTP 500'],
    ];
    for (const [status, ok, error] of cases) {
      receiver.respond(() => ({ status, headers: { location: 'http://169.254.169.254/' } }));
      const before = receiver.received.length;
      const result = await post();
      expect(result, String(status)).toMatchObject({ ok, responseStatus: status, error });
      expect(result.durationMs).toBeGreaterThanOrEqual(0);
      expect(receiver.received.length - before, String(status)).toBe(1);
    }
    expect(receiver.received.at(-1)).toMatchObject({ body: '{"a":1}', path: '/hook' });
  });

  it('gives up after its timeout and says so', async () => {
    receiver.respond(() => new Promise(() => {}));
    expect(await post(300)).toMatchObject({
      ok: false,
      responseStatus: null,
      error: 'timed out after 0.3 s',
    });
  });

  it('throws instead of reporting when the process stops it (the attempt is then sent again)', async () => {
    receiver.respond(() => new Promise(() => {}));
    const stopping = new AbortController();
    const sending = post(10_000, stopping.signal);
    await receiver.waitFor(receiver.received.length + 1);
    stopping.abort(new Error('stopping'));
    await expect(sending).rejects.toThrow();
  });

  it('reports a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    expect(await post(10_000, never, `http://127.0.0.1:${port}/hook`)).toMatchObject({
      ok: false,
      responseStatus: null,
      error: 'connection refused',
    });
  });
});
