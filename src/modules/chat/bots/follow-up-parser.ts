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

/**
 * How much of a message the assistant reads: a command is a sentence, and every pattern and the date reader
 * run over at most this many characters, so a long message costs no more than a short one.
 */
export const MAX_PARSED_CHARS = 500;

// Every pattern below runs in time linear in its input: no quantified piece sits next to, or inside, another
// that takes the same characters, and none ends in a run that must be followed by an end anchor (the shape
// `(.+?)[\s.!]*$` backtracked cubically over a run of spaces); trailing characters are trimmed by loops.
const NETWORK = new RegExp(`\\b(?:on|via|by|over)\\s+(${Object.keys(NETWORKS).join('|')})\\b`, 'i');
/** The first words of a request for the list; a word of `LIST_OBJECT` must follow on the same line. */
const LIST_VERB = /\b(?:list|show|what(?:'|’)?s|what are|what is)\b/i;
const LIST_OBJECT = /\b(?:follow[- ]?ups?|due|tasks?|reminders?)\b/gi;
/** A message of one word naming the list (an ending "?" and spaces trimmed first). */
const LIST_WORD = /^(?:follow[- ]?ups?|tasks|reminders)$/i;
/** The words before the person of "done with Maya"; the rest of the message is the person. */
const DONE_PREFIX =
  /^(?:i(?:'|’)?m\s+|i am\s+)?(?:done|finished|completed?)\s+(?:with\s+)?(?:the\s+follow[- ]?up\s+(?:with|for)\s+)?/i;
const LINE_BREAK = /[\n\r\u2028\u2029]/;
const CREATE = /\b(?:remind me|follow[- ]?up|reach out|get back|check in|ping|message|text|call|email|dm)\b/i;
// The person: after "with", "to" or a verb of contact, a name or @handle of up to three words.
const PERSON =
  /\b(?:with|to|ping|message|text|call|email|dm|contact)\s+(@[\w.]+|[A-Z\u00C0-\u024F][\w'’.-]*(?:\s+[A-Z\u00C0-\u024F][\w'’.-]*){0,2})/;
/** The assistant's patterns, for the check that each runs in linear time. */
export const COMMAND_PATTERNS = [NETWORK, LIST_VERB, LIST_OBJECT, LIST_WORD, DONE_PREFIX, CREATE, PERSON];

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
  return trimEndOf(kept.join(' '), '.,!?;:');
}

/** `text` without the characters of `chars` (and, with `spaces`, white space) at its end. */
function trimEndOf(text: string, chars: string, spaces = false): string {
  let end = text.length;
  while (end > 0 && (chars.includes(text[end - 1]!) || (spaces && /\s/.test(text[end - 1]!)))) end--;
  return text.slice(0, end);
}

/** Whether one line of the message asks for the list: a list verb, then a list word after it. */
function asksForList(message: string): boolean {
  if (LIST_WORD.test(trimEndOf(message, '?', true))) return true;
  return message.split(LINE_BREAK).some((line) => {
    const verb = LIST_VERB.exec(line);
    if (!verb) return false;
    LIST_OBJECT.lastIndex = verb.index + verb[0].length;
    return LIST_OBJECT.test(line);
  });
}

/** The person of "done with Maya", "I'm finished with the follow-up for Jo.", if the message says so. */
function donePerson(message: string): string | undefined {
  const prefix = DONE_PREFIX.exec(message);
  if (!prefix) return undefined;
  const rest = trimEndOf(message.slice(prefix[0].length), '.!', true);
  if (rest.length === 0 || LINE_BREAK.test(rest)) return undefined;
  return cleanPerson(rest) || rest.trim();
}

/**
 * Reads a message to the assistant offline. Dates are read with chrono in the user's zone, forward (a bare
 * "Friday" is the next one); a day without a time of day is due at 09:00 there; no date: no due time.
 */
export function parseCommand(text: string, now: Date, timeZone: string): BotCommand {
  const message = text.trimStart().slice(0, MAX_PARSED_CHARS).trimEnd();
  if (asksForList(message)) return { kind: 'list' };
  const person = donePerson(message);
  if (person !== undefined && person.length > 0 && person.length <= 200) return { kind: 'done', person };
  if (!CREATE.test(message)) return { kind: 'help' };
  const named = PERSON.exec(message);
  const name = named ? cleanPerson(named[1]!) : '';
  if (!name) return { kind: 'help' };
  const network = NETWORK.exec(message);
  return {
    kind: 'create',
    person: name.slice(0, 200),
    network: network ? NETWORKS[network[1]!.toLowerCase()]! : null,
    dueAt: dueDate(message, now, timeZone),
    note: text.trim().slice(0, 1000),
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
