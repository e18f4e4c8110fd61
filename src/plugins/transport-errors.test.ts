import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestContext } from '../../test/helpers/context.ts';

const ctx = useTestContext();
let port = 0;

beforeAll(async () => {
  const origin = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  port = Number(new URL(origin).port);
});

/** Sends raw bytes over a socket and answers everything the server writes back before it closes. */
function exchange(raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(raw));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('malformed HTTP', () => {
  it('answers broken framing with 400 in the contract shape', async () => {
    const answer = await exchange(
      'POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer.slice(answer.indexOf('\r\n\r\n') + 4)).toBe(
      '{"error":"The request is not valid HTTP","code":"bad_request"}',
    );
  });

  it('answers headers over the limit with 431 and a code', async () => {
    const answer = await exchange(
      `GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toContain('"code":"headers_too_large"');
  });
});
