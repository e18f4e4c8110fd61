import type { Db } from '../../../db/client.ts';
import type { Principal } from '../../../plugins/auth.ts';
import type { ChatCompletionsSettings } from '../../../shared/chat-completions.ts';
import { requireTeam, sessionUserId } from '../../../shared/tenancy.ts';
import { modelText } from './model-text.ts';

export const DRAFT_KINDS = ['follow_up', 'thank_you', 'reminder', 'introduction'] as const;
export type DraftKind = (typeof DRAFT_KINDS)[number];

export type DraftInput = {
  teamId: number;
  kind: DraftKind;
  person: string;
  network?: string | undefined;
  messages?: { fromMe: boolean; text: string }[] | undefined;
};

const QUOTE_LENGTH = 80;

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > QUOTE_LENGTH ? `${flat.slice(0, QUOTE_LENGTH - 1).trimEnd()}…` : flat;
}

/** The offline draft: a template per kind, naming the person and echoing the last thing they said. */
export function templateDraft(input: DraftInput): string {
  const name = input.person.trim();
  const on = input.network?.trim() ? ` on ${input.network.trim()}` : '';
  const messages = input.messages ?? [];
  const theirs = [...messages].reverse().find((m) => !m.fromMe && m.text.trim());
  const mine = [...messages].reverse().find((m) => m.fromMe && m.text.trim());
  const said = theirs ? ` You mentioned "${quote(theirs.text)}", and I wanted to pick that up.` : '';
  switch (input.kind) {
    case 'follow_up':
      return `Hi ${name}, following up on our conversation${on}.${said} Let me know when you have a moment to talk next steps!`;
    case 'thank_you':
      return `Hi ${name}, thank you so much${theirs ? ` for "${quote(theirs.text)}"` : ' for your time'} — it really means a lot. Looking forward to what comes next!`;
    case 'reminder':
      return `Hi ${name}, just a friendly reminder${mine ? ` about "${quote(mine.text)}"` : ' about what we discussed'}${on}. Let me know if anything changed!`;
    case 'introduction':
      return `Hi ${name}, I'm reaching out${on} to introduce myself: I'm part of a music team and I'd love to connect.${said} Would you be open to a quick chat?`;
  }
}

const DRAFT_PROMPT =
  'You write short, friendly outreach messages for musicians. Write one message of the given kind ' +
  '(follow_up, thank_you, reminder or introduction) to the person, fitting the network, referring to the ' +
  'conversation when it helps. Answer with the message text only.';

/** A draft message: the configured model's when it answers, the offline template otherwise. */
export async function writeDraft(
  db: Db,
  llm: ChatCompletionsSettings | undefined,
  principal: Principal,
  input: DraftInput,
): Promise<{ draft: string; provider: 'template' | 'llm' }> {
  sessionUserId(principal);
  await requireTeam(db, principal, input.teamId);
  const written = await modelText(llm, DRAFT_PROMPT, {
    kind: input.kind,
    person: input.person,
    network: input.network ?? null,
    messages: input.messages ?? [],
  });
  return written
    ? { draft: written, provider: 'llm' }
    : { draft: templateDraft(input), provider: 'template' };
}
