import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { mailSettings } from '../mail/mail.config.ts';
import { renderMail } from '../mail/template.ts';
import { createMailTransport } from '../mail/transport.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'tmw-mail-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const tmw = async (args: string[]) => {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['bin/tmw.js', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, SMTP_URL: '', DATABASE_URL: '' },
    });
    return { code: 0, stdout, stderr: '' };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return failed;
  }
};

// A link longer than a quoted-printable line, as real ones are: the file breaks and encodes it.
const TOKEN = 'Zm9vYmFyYmF6cXV4LXF1dXgtY29yZ2UtZ3JhdWx0LWdhcnBseS13YWxkbw';
const LINK = `https://app.example.test/verify-email?token=${TOKEN}`;

describe('tmw mail', () => {
  it('prints the newest message of the mail folder, decoded, while nothing holds the database', async () => {
    const transport = createMailTransport(
      mailSettings({ DATA_DIR: dataDir, MAIL_FROM: 'Studio <hi@studio.test>' }),
    );
    const send = async (id: string, to: string, url: string) =>
      transport.deliver({
        id,
        to,
        ...renderMail({ subject: `For ${to}`, paragraphs: ['Hello'], action: { label: 'Open', url } }),
      });
    await send('00000000-0000-4000-8000-000000000001', 'ada@example.test', LINK);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await send('00000000-0000-4000-8000-000000000002', 'bob@example.test', 'https://app.example.test/x');
    transport.close();
    const [file] = (await readdir(join(dataDir, 'mail'))).sort();
    // The file itself does not hold the link in one piece.
    expect(readFileSync(join(dataDir, 'mail', file!), 'utf8')).not.toContain(LINK);

    const ada = await tmw(['mail', '--to', 'ADA@example.test']);
    expect(ada.code, ada.stderr).toBe(0);
    expect(ada.stdout).toContain('Subject: For ada@example.test');
    expect(ada.stdout).toContain(LINK);
    const newest = await tmw(['mail']);
    expect(newest.stdout).toContain('To: bob@example.test');
    const none = await tmw(['mail', '--to', 'nobody@example.test']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no message to nobody@example.test');
  });
});
