import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';

export type ReceivedMail = {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  messageId: string | undefined;
};

export type Mailbox = {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  readonly url: string;
  readonly received: ReceivedMail[];
  /** Refuses every message with a temporary failure while true (a relay that is down). */
  refusing: boolean;
  /** The messages to `address` so far (normalised to lower case). */
  to(address: string): ReceivedMail[];
  /** The last message to `address` whose subject matches; fails when there is none. */
  last(address: string, subject?: RegExp): ReceivedMail;
};

/** The single link of a message's text body with `path` in it, and its `token` query parameter if any. */
export function linkIn(mail: ReceivedMail, path: string): { url: URL; token: string | null } {
  const found = mail.text.match(/https?:\/\/\S+/g)?.find((candidate) => candidate.includes(path));
  if (!found) throw new Error(`No link with ${path} in the mail "${mail.subject}":\n${mail.text}`);
  const url = new URL(found);
  return { url, token: url.searchParams.get('token') };
}

const addresses = (parsed: ParsedMail): string[] => {
  const list = Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : [];
  return list.flatMap((group) => group.value.map((entry) => (entry.address ?? '').toLowerCase()));
};

/** A real SMTP server in the test process, receiving what the service sends; one per test file. */
export function useMailbox(): Mailbox {
  const received: ReceivedMail[] = [];
  let url = '';
  const mailbox: Mailbox = {
    get url() {
      if (!url) throw new Error('The mailbox listens only once the tests start');
      return url;
    },
    received,
    refusing: false,
    to: (address) => received.filter((mail) => mail.to.includes(address.toLowerCase())),
    last(address, subject) {
      const found = mailbox.to(address).filter((mail) => !subject || subject.test(mail.subject));
      const mail = found.at(-1);
      if (!mail) throw new Error(`No mail to ${address}${subject ? ` matching ${subject}` : ''}`);
      return mail;
    },
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      if (mailbox.refusing) {
        stream.resume();
        const error = Object.assign(new Error('Try again later'), { responseCode: 451 });
        stream.on('end', () => callback(error));
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            to: addresses(parsed),
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            messageId: parsed.messageId,
          });
          callback();
        })
        .catch(callback);
    },
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return mailbox;
}
