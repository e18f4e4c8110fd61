import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggerOptions, redactUrl } from './request-log.ts';

describe('request logs', () => {
  it('hide the credentials a URL can carry', () => {
    expect(redactUrl('/api/v1/files/download?token=abc.def&x=1')).toBe(
      '/api/v1/files/download?token=[redacted]&x=1',
    );
    expect(redactUrl('/b/k?X-Amz-Credential=AK%2F1&X-Amz-Signature=ff00')).toBe(
      '/b/k?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]',
    );
    expect(redactUrl('/api/v1/invites/s3cr3t/accept')).toBe('/api/v1/invites/[redacted]/accept');
    expect(redactUrl('/api/v1/tracks/?teamId=1')).toBe('/api/v1/tracks/?teamId=1');
  });

  it('never write a signed URL token or an invite token, while keeping the route', async () => {
    const lines: string[] = [];
    const app = Fastify({
      logger: { ...loggerOptions('info'), stream: { write: (line: string) => lines.push(line) } },
    });
    app.get('/api/v1/files/download', async () => ({ ok: true }));
    app.post('/api/v1/invites/:token/accept', async () => ({ ok: true }));
    await app.inject({ method: 'GET', url: '/api/v1/files/download?token=SIGNED-SECRET' });
    await app.inject({ method: 'POST', url: '/api/v1/invites/INVITE-SECRET/accept' });
    await app.close();
    const log = lines.join('');
    expect(log).toContain('/api/v1/files/download?token=[redacted]');
    expect(log).toContain('/api/v1/invites/[redacted]/accept');
    expect(log).not.toContain('SIGNED-SECRET');
    expect(log).not.toContain('INVITE-SECRET');
  });
});
