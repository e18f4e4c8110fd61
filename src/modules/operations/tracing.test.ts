import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext } from '../../../test/helpers/context.ts';

type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: { key: string; value: { stringValue?: string; intValue?: number | string } }[];
};

// A collector in the test process: what the service exports over OTLP/HTTP (JSON).
const received: { path: string; spans: OtlpSpan[] }[] = [];
const collector = createServer((request: IncomingMessage, response) => {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    const parsed = JSON.parse(body) as {
      resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
    };
    const spans = parsed.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    received.push({ path: request.url ?? '', spans });
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
let endpoint = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => collector.close(() => resolve())));

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

describe('OpenTelemetry spans', () => {
  it('exports a server span per request, a child of the caller span, named by its route, ids as answered', async () => {
    const ctx = await createTestContext({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint } });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    let answered: string | undefined;
    try {
      const user = await ctx.newUser();
      const res = await ctx.request({
        method: 'GET',
        url: '/api/v1/auth/me',
        token: user.token,
        headers: { traceparent: `00-${traceId}-${parentId}-01` },
      });
      expect(res.statusCode).toBe(200);
      answered = res.headers.traceparent as string;
    } finally {
      // Closing flushes the batch.
      await ctx.close();
    }
    const [, answeredTrace, answeredSpan, flags] = answered!.split('-');
    expect(answeredTrace).toBe(traceId);
    expect(flags).toBe('01');
    expect(received.every((batch) => batch.path === '/v1/traces')).toBe(true);
    const span = received.flatMap((batch) => batch.spans).find((s) => s.traceId === traceId);
    expect(span).toBeDefined();
    expect(span).toMatchObject({ spanId: answeredSpan, parentSpanId: parentId, name: 'GET /api/v1/auth/me' });
    expect(attribute(span!, 'http.response.status_code')).toBe(200);
    expect(attribute(span!, 'operation.id')).toBe('auth.me');
  });

  it('sends nothing, and still answers a traceparent, when no endpoint is set', async () => {
    const before = received.length;
    const ctx = await createTestContext();
    try {
      const res = await ctx.request({ method: 'GET', url: '/api/v1/health' });
      expect(res.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
      expect(ctx.app.services.tracing).toBeUndefined();
    } finally {
      await ctx.close();
    }
    expect(received.length).toBe(before);
  });
});
