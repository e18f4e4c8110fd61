import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestContext } from '../../test/helpers/context.ts';

const dataDir = await mkdtemp(join(tmpdir(), 'tmw-mail-'));
const ctx = useTestContext({ env: { DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:4100' } });
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('mail without a relay', () => {
  it('writes each message as an .eml file under DATA_DIR/mail and logs one line without its link', async () => {
    const lines: string[] = [];
    const { jobs, mailer } = ctx.app.services;
    const logger = jobs.logger;
    jobs.logger = {
      ...logger,
      info: (object, message) => lines.push(JSON.stringify({ ...object, message })),
    };
    try {
      await mailer.send(ctx.database.db, {
        to: 'first@example.test',
        kind: 'test.hello',
        content: {
          subject: 'Welcome',
          paragraphs: ['Hello'],
          action: { label: 'Verify', url: mailer.link('/verify-email', { token: 'tok-secret-456' }) },
        },
      });
      await jobs.runDue();
    } finally {
      jobs.logger = logger;
    }
    const names = (await readdir(join(dataDir, 'mail'))).filter((name) => name.endsWith('.eml'));
    expect(names).toHaveLength(1);
    const raw = await readFile(join(dataDir, 'mail', names[0]!), 'utf8');
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe('Welcome');
    expect(parsed.text).toContain('http://localhost:4100/verify-email?token=tok-secret-456');
    const logged = lines.filter((line) => line.includes('mail sent'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(names[0]);
    expect(lines.join('\n')).not.toContain('tok-secret-456');
  });
});
