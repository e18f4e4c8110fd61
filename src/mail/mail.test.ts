import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TestClock, useTestContext } from '../../test/helpers/context.ts';
import { linkIn, useMailbox } from '../../test/helpers/mailbox.ts';
import { mailOutbox } from '../db/schema/index.ts';
import { MAIL_SEND_ATTEMPTS } from './delivery.ts';

const clock = new TestClock(Date.parse('2031-03-01T10:00:00.000Z'));
const mailbox = useMailbox();
const ctx = useTestContext({
  clock,
  env: () => ({
    SMTP_URL: mailbox.url,
    MAIL_FROM: 'Studio <hello@studio.test>',
    APP_URL: 'https://app.studio.test/',
  }),
});

const HOUR = 3_600_000;
let unique = 0;
const address = () => `person-${++unique}@example.test`;

async function queue(to: string, paragraph = 'Hello there') {
  const { mailer } = ctx.app.services;
  await mailer.send(ctx.database.db, {
    to,
    kind: 'test.hello',
    content: {
      subject: 'A message\r\nBcc: someone@else.test',
      paragraphs: [paragraph],
      action: { label: 'Open it', url: mailer.link('/open', { token: 'secret-token-123' }) },
      footer: ['You got this because a test sent it.'],
    },
  });
}

const outbox = (to: string) => ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));

describe('mail through a real SMTP relay', () => {
  it('delivers one message with text and HTML bodies from one template, then keeps only the envelope', async () => {
    const to = address();
    await queue(to, 'Your <b>mix</b> & notes');
    expect(mailbox.to(to)).toHaveLength(0);
    await ctx.app.services.jobs.runDue();

    const mail = mailbox.last(to);
    expect(mail.from).toBe('"Studio" <hello@studio.test>');
    // A line break in a subject cannot add a header.
    expect(mail.subject).toBe('A message Bcc: someone@else.test');
    expect(mail.text).toContain('Your <b>mix</b> & notes');
    expect(mail.html).toContain('Your &lt;b&gt;mix&lt;/b&gt; &amp; notes');
    const { url, token } = linkIn(mail, '/open');
    expect(url.origin + url.pathname).toBe('https://app.studio.test/open');
    expect(token).toBe('secret-token-123');
    expect(mail.html).toContain('href="https://app.studio.test/open?token=secret-token-123"');
    expect(mail.messageId).toMatch(/@studio\.test>$/);

    const [row] = await outbox(to);
    expect(row).toMatchObject({ kind: 'test.hello', textBody: null, htmlBody: null, attempts: 1 });
    expect(row!.sentAt).not.toBeNull();
    // Sent once: running the queue again sends nothing more.
    await ctx.app.services.jobs.runDue();
    expect(mailbox.to(to)).toHaveLength(1);
  });

  it('nothing is queued when the change that sends the mail rolls back', async () => {
    const to = address();
    await expect(
      ctx.database.db.transaction(async (tx) => {
        await ctx.app.services.mailer.send(tx, {
          to,
          kind: 'test.hello',
          content: { subject: 'Never', paragraphs: ['Never sent'] },
        });
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    await ctx.app.services.jobs.runDue();
    expect(await outbox(to)).toEqual([]);
    expect(mailbox.to(to)).toEqual([]);
  });

  it('retries while the relay refuses and sends once it takes mail again', async () => {
    const to = address();
    await queue(to);
    mailbox.refusing = true;
    try {
      await ctx.app.services.jobs.runDue();
      expect(mailbox.to(to)).toHaveLength(0);
      const [waiting] = await outbox(to);
      expect(waiting).toMatchObject({ attempts: 1, sentAt: null, failedAt: null });
      expect(waiting!.lastError).toMatch(/451|try again/i);
      expect(waiting!.textBody).toContain('secret-token-123');
    } finally {
      mailbox.refusing = false;
    }
    clock.advance(HOUR);
    await ctx.app.services.jobs.runDue();
    expect(mailbox.to(to)).toHaveLength(1);
    expect((await outbox(to))[0]).toMatchObject({ attempts: 2, lastError: null, textBody: null });
  });

  it('gives a message up after its last attempt and clears its link', async () => {
    const to = address();
    await queue(to);
    mailbox.refusing = true;
    try {
      for (let attempt = 0; attempt < MAIL_SEND_ATTEMPTS + 2; attempt++) {
        await ctx.app.services.jobs.runDue();
        clock.advance(24 * HOUR);
      }
    } finally {
      mailbox.refusing = false;
    }
    const [row] = await outbox(to);
    expect(row).toMatchObject({ attempts: MAIL_SEND_ATTEMPTS, sentAt: null, textBody: null, htmlBody: null });
    expect(row!.failedAt).not.toBeNull();
    expect(mailbox.to(to)).toEqual([]);
  });
});
