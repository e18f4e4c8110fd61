import { lazyRequire } from '../../../shared/lazy-module.ts';
import { offsetMinutes, zonedInstant } from './time-zone.ts';

const chrono = lazyRequire<typeof import('chrono-node')>('chrono-node');

/** What the assistant understood from a message. */
export type BotCommand =
  | { kind: 'create'; person: string; network: string | null; dueAt: Date | null; note: string }
  | { kind: 'list' }
  | { kind: 'done'; person: string }
  | { kind: 'help' };

/** The hour a task with a day but no time of day is due at, in the user's zone. */
export const DEFAULT_DUE_HOUR = 9;

const NETWORKS: Record<string, string> = {
  instagram: 'instagram',
  insta: 'instagram',
  ig: 'instagram',
  tiktok: 'tiktok',
  twitter: 'twitter',
  x: 'twitter',
  facebook: 'facebook',
  fb: 'facebook',
  whatsapp: 'whatsapp',
  linkedin: 'linkedin',
  youtube: 'youtube',
  snapchat: 'snapchat',
  threads: 'threads',
  telegram: 'telegram',
  signal: 'signal',
  discord: 'discord',
  email: 'email',
  'e-mail': 'email',
  mail: 'email',
  phone: 'phone',
  sms: 'sms',
  text: 'sms',
};

const NETWORK = new RegExp(`\\b(?:on|via|by|over)\\s+(${Object.keys(NETWORKS).join('|')})\\b`, 'i');
const LIST =
  /\b(?:list|show|what(?:'|’)?s|what are|what is)\b.*\b(?:follow[- ]?ups?|due|tasks?|reminders?)\b|^\s*(?:follow[- ]?ups?|tasks|reminders)\s*\??\s*$/i;
const DONE =
  /^\s*(?:i(?:'|’)?m\s+|i am\s+)?(?:done|finished|completed?)\s+(?:with\s+)?(?:the\s+follow[- ]?up\s+(?:with|for)\s+)?(.+?)[\s.!]*$/i;
const CREATE = /\b(?:remind me|follow[- ]?up|reach out|get back|check in|ping|message|text|call|email|dm)\b/i;
// The person: after "with", "to" or a verb of contact, a name or @handle of up to three words.
const PERSON =
  /\b(?:with|to|ping|message|text|call|email|dm|contact)\s+(@[\w.]+|[A-Z\u00C0-\u024F][\w'’.-]*(?:\s+[A-Z\u00C0-\u024F][\w'’.-]*){0,2})/;
const STOP = new Set([
  'Me',
  'Remind',
  'Follow',
  'On',
  'Next',
  'Tomorrow',
  'Today',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
  'In',
  'At',
  'By',
]);

function cleanPerson(raw: string): string {
  const words = raw.trim().split(/\s+/);
  const kept: string[] = [];
  for (const word of words) {
    if (STOP.has(word)) break;
    kept.push(word);
  }
  return kept.join(' ').replace(/[.,!?;:]+$/, '');
}

/**
 * Reads a message to the assistant offline. Dates are read with chrono in the user's zone, forward (a bare
 * "Friday" is the next one); a day without a time of day is due at 09:00 there; no date: no due time.
 */
export function parseCommand(text: string, now: Date, timeZone: string): BotCommand {
  const message = text.trim();
  if (LIST.test(message)) return { kind: 'list' };
  const done = DONE.exec(message);
  if (done?.[1]) {
    const person = cleanPerson(done[1]) || done[1].trim();
    if (person.length > 0 && person.length <= 200) return { kind: 'done', person };
  }
  if (!CREATE.test(message)) return { kind: 'help' };
  const person = PERSON.exec(message);
  const name = person ? cleanPerson(person[1]!) : '';
  if (!name) return { kind: 'help' };
  const network = NETWORK.exec(message);
  return {
    kind: 'create',
    person: name.slice(0, 200),
    network: network ? NETWORKS[network[1]!.toLowerCase()]! : null,
    dueAt: dueDate(message, now, timeZone),
    note: message.slice(0, 1000),
  };
}

function dueDate(text: string, now: Date, timeZone: string): Date | null {
  const [result] = chrono().parse(
    text,
    { instant: now, timezone: offsetMinutes(timeZone, now) },
    { forwardDate: true },
  );
  if (!result) return null;
  const start = result.start;
  if (start.isCertain('hour')) return start.date();
  return zonedInstant(timeZone, {
    year: start.get('year')!,
    month: start.get('month')!,
    day: start.get('day')!,
    hour: DEFAULT_DUE_HOUR,
    minute: 0,
  });
}
