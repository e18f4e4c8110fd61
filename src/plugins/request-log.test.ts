import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { PathTokens } from './path-tokens.ts';
import { loggerOptions, redactUrl } from './request-log.ts';

const tokensOf = (...urls: string[]) => {
  const tokens = new PathTokens();
  for (const url of urls) tokens.add({ method: 'GET', url, config: { pathToken: 'token' } });
  return tokens;
};

describe('request logs', () => {
  it('hide the credentials a URL can carry', () => {
    const tokens = tokensOf('/api/v1/invites/:token/accept', '/api/v1/sessions/calendar/:token.ics');
    expect(redactUrl('/api/v1/files/download?token=abc.def&x=1', tokens)).toBe(
      '/api/v1/files/download?token=[redacted]&x=1',
    );
    expect(redactUrl('/b/k?X-Amz-Credential=AK%2F1&X-Amz-Signature=ff00', tokens)).toBe(
      '/b/k?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]',
    );
    expect(redactUrl('/api/v1/invites/s3cr3t/accept', tokens)).toBe('/api/v1/invites/[redacted]/accept');
    expect(redactUrl('/api/v1/invites/s3cr3t/accept/?x=1', tokens)).toBe(
      '/api/v1/invites/[redacted]/accept/?x=1',
    );
    expect(redactUrl('/api/v1/sessions/calendar/a.b-c.ics', tokens)).toBe(
      '/api/v1/sessions/calendar/[redacted].ics',
    );
    expect(redactUrl('/api/v1/chat/events?lastEventId=4&ticket=Abc_-9', tokens)).toBe(
      '/api/v1/chat/events?lastEventId=4&ticket=[redacted]',
    );
    expect(redactUrl('/api/v1/tracks/?teamId=1', tokens)).toBe('/api/v1/tracks/?teamId=1');
  });

  it('refuse a route whose path parameter looks like a capability but is not declared one', () => {
    const tokens = new PathTokens();
    expect(() => tokens.add({ method: 'GET', url: '/x/:token' })).toThrow(/declare config.pathToken/);
    expect(() => tokens.add({ method: 'GET', url: '/x/:linkSecret/y', config: {} })).toThrow(/pathToken/);
    expect(() => tokens.add({ method: 'GET', url: '/x/:id', config: { pathToken: 'token' } })).toThrow(
      /names no path parameter/,
    );
    expect(() => tokens.add({ method: 'GET', url: '/x/:id' })).not.toThrow();
  });

  it('never write a signed URL token or a path token, whatever the method, while keeping the route', async () => {
    const lines: string[] = [];
    const tokens = new PathTokens();
    const app = Fastify({
      logger: { ...loggerOptions('info', tokens), stream: { write: (line: string) => lines.push(line) } },
    });
    app.addHook('onRoute', (route) => tokens.add(route));
    // The service answers unknown routes itself (Fastify's own answer would log the raw URL).
    app.setNotFoundHandler(async (_request, reply) => reply.code(404).send({}));
    app.get('/api/v1/files/download', async () => ({ ok: true }));
    app.post('/api/v1/invites/:token/accept', { config: { pathToken: 'token' } }, async () => ({ ok: true }));
    await app.inject({ method: 'GET', url: '/api/v1/files/download?token=SIGNED-SECRET' });
    await app.inject({ method: 'POST', url: '/api/v1/invites/INVITE-SECRET/accept' });
    await app.inject({ method: 'DELETE', url: '/api/v1/invites/OTHER-METHOD-SECRET/accept' });
    await app.close();
    const log = lines.join('');
    expect(log).toContain('/api/v1/files/download?token=[redacted]');
    expect(log.split('/api/v1/invites/[redacted]/accept')).toHaveLength(3);
    expect(log).not.toContain('SECRET');
  });
});
