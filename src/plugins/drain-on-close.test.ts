import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../../test/helpers/context.ts';

/** Resolves with everything the socket received once the server has closed it. */
const closedByServer = (socket: Socket) =>
  new Promise<string>((resolve, reject) => {
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
    });
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });

describe('closing the server', () => {
  it('ends a keep-alive connection whose response was in flight when the close began', async () => {
    const ctx = await createTestContext();
    let closing: Promise<void> | undefined;
    try {
      const origin = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
      const body = JSON.stringify({ email: 'nobody@example.test', password: 'not-the-password' });
      const socket = connect(Number(new URL(origin).port), '127.0.0.1');
      const received = closedByServer(socket);
      const continued = new Promise<void>((resolve) =>
        socket.once('data', (chunk) => {
          if (chunk.toString().startsWith('HTTP/1.1 100')) resolve();
        }),
      );
      // The server answers 100 Continue once it holds the request's headers: the request is in flight.
      socket.write(
        `POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
      );
      await continued;
      closing = ctx.close();
      socket.write(body);
      const answer = await received;
      expect(answer).toMatch(/HTTP\/1\.1 401 /);
      expect(answer).not.toMatch(/connection: close/i);
      await closing;
    } finally {
      await (closing ?? ctx.close());
    }
  });
});
