import type { FollowUpRow } from './follow-ups.repository.ts';

const HELP =
  'I keep your follow-ups. Try "remind me to follow up with Maya on Instagram next Friday", ' +
  '"list my follow-ups" or "done with Maya".';

const NETWORK_NAMES: Record<string, string> = {
  instagram: 'Instagram',
  tiktok: 'TikTok',
  twitter: 'X (Twitter)',
  facebook: 'Facebook',
  whatsapp: 'WhatsApp',
  linkedin: 'LinkedIn',
  youtube: 'YouTube',
  snapchat: 'Snapchat',
  threads: 'Threads',
  telegram: 'Telegram',
  signal: 'Signal',
  discord: 'Discord',
  email: 'e-mail',
  phone: 'the phone',
  sms: 'text message',
};

/** A due time as the user reads it, in their zone. */
export function whenText(dueAt: Date | null, timeZone: string): string {
  if (!dueAt) return 'with no date';
  const text = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(dueAt);
  return `on ${text} (${timeZone})`;
}

function taskText(task: FollowUpRow, timeZone: string): string {
  const network = task.network ? ` on ${NETWORK_NAMES[task.network] ?? task.network}` : '';
  return `${task.person}${network} ${whenText(task.dueAt, timeZone)}`;
}

export const offlineReplies = {
  help: () => HELP,
  created: (task: FollowUpRow, timeZone: string) =>
    `Got it: I'll remind you to follow up with ${taskText(task, timeZone)}.` +
    (task.contactId ? ' (Matched to your contact.)' : ''),
  list: (tasks: FollowUpRow[], timeZone: string) =>
    tasks.length === 0
      ? 'You have no open follow-ups.'
      : `Your open follow-ups:\n${tasks.map((t, i) => `${i + 1}. ${taskText(t, timeZone)}`).join('\n')}`,
  done: (person: string, count: number) =>
    count === 0
      ? `I found no open follow-up with ${person}.`
      : `Marked ${count === 1 ? 'your follow-up' : `${count} follow-ups`} with ${person} as done.`,
};
