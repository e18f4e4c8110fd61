import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDataDir } from '../../../test/helpers/data-dir.ts';
import { cloneDatabase } from '../../../test/helpers/database.ts';
import { linkIn, type ReceivedMail, useMailbox } from '../../../test/helpers/mailbox.ts';
import { type ServerProcess, startServer, stopServer } from '../../../test/helpers/server-process.ts';

// The mailed tokens travel in request bodies: the real service, logging every request, never writes them.
const TIMEOUT_MS = 120_000;
const mailbox = useMailbox();
let dataDir: string;
let server: ServerProcess;

beforeAll(async () => {
  dataDir = await newDataDir('tmw-mail-token-logs-');
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'info', SMTP_URL: mailbox.url };
  if (process.env.DATABASE_URL) {
    const database = await cloneDatabase();
    await database.close();
    env.DATABASE_URL = database.url!;
  }
  server = await startServer(env, 60_000);
}, TIMEOUT_MS);

afterAll(async () => {
  if (server) await stopServer(server, 'SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
});

const post = async (path: string, body: unknown) => {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.text() };
};

/** The server's job queue sends mail on its own: waits for the message. */
async function mailTo(address: string, subject: RegExp): Promise<ReceivedMail> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const found = mailbox.to(address).filter((mail) => subject.test(mail.subject));
    if (found.length > 0) return found.at(-1)!;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no mail to ${address} matching ${subject}`);
}

describe('request logs of the account mail routes', () => {
  it(
    'never hold a verification or reset token, nor a password',
    async () => {
      const email = `logs-${randomBytes(4).toString('hex')}@example.test`;
      const password = `pw-${randomBytes(8).toString('hex')}`;
      const newPassword = `new-${randomBytes(8).toString('hex')}`;
      const signup = await post('/auth/signup', { email, password });
      expect(signup.status).toBe(201);
      const { refresh_token: refreshToken } = JSON.parse(signup.body) as { refresh_token: string };

      const verifyToken = linkIn(await mailTo(email, /verify/i), '/verify-email').token!;
      expect((await post('/auth/verify-email', { token: verifyToken })).status).toBe(200);
      expect((await post('/auth/password-reset', { email })).status).toBe(202);
      const resetToken = linkIn(await mailTo(email, /reset/i), '/reset-password').token!;
      // A refused body (too short a password) is not written either.
      expect(
        (await post('/auth/password-reset/confirm', { token: resetToken, password: 'short' })).status,
      ).toBe(400);
      expect(
        (await post('/auth/password-reset/confirm', { token: resetToken, password: newPassword })).status,
      ).toBe(204);
      expect(
        (await post('/auth/password-reset/confirm', { token: resetToken, password: newPassword })).status,
      ).toBe(400);
      const unknown = `Tk${randomBytes(18).toString('hex')}`;
      expect((await post('/auth/verify-email', { token: unknown })).status).toBe(400);
      await mailTo(email, /password was changed/i);

      const logged = ['/api/v1/auth/verify-email', '/api/v1/auth/password-reset/confirm', '"mail sent"'];
      const deadline = Date.now() + 10_000;
      while (!logged.every((text) => server.output().includes(text)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const output = server.output();
      for (const text of logged) expect(output).toContain(text);
      for (const secret of [verifyToken, resetToken, unknown, password, newPassword, refreshToken])
        expect(output).not.toContain(secret);
    },
    TIMEOUT_MS,
  );
});
