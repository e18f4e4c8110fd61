import type { ContactEvent } from './contact-events.ts';
import type { NormalisedInput } from './contact-input.ts';
import type { ContactRow, ContactValues } from './contacts.repository.ts';

/** The fields of a contact in the order answers and change lists name them. */
const FIELD_ORDER = [
  'name',
  'email',
  'phone',
  'company',
  'role',
  'networks',
  'tags',
  'groupIds',
  'leadStatus',
  'notes',
  'userId',
] as const;
type Field = (typeof FIELD_ORDER)[number];

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What a patch really changes of a contact: the field names, the row values and the timeline events. */
export type ContactChanges = {
  fields: Field[];
  values: Partial<ContactValues>;
  handlesChanged: boolean;
  groupsChanged: boolean;
  events: ContactEvent[];
};

/**
 * Compares the patch with the contact as it is: only fields whose value differs count. Lead status moves and
 * note changes are events of their own (the lead-status history, the notes on the timeline); every other
 * change is one `updated` event naming its fields.
 */
export function changesOf(current: ContactRow, input: NormalisedInput): ContactChanges {
  const next: Partial<Record<Field, unknown>> = { ...input.scalars };
  if (input.handles) next.networks = input.handles.map(({ network, handle }) => ({ network, handle }));
  if (input.groupIds) next.groupIds = input.groupIds;
  const fields = FIELD_ORDER.filter((f) => f in next && !sameValue(next[f], current[f]));
  const values: Partial<ContactValues> = {};
  for (const f of fields) {
    if (f !== 'networks' && f !== 'groupIds') (values as Record<string, unknown>)[f] = next[f];
  }
  const events: ContactEvent[] = [];
  const plain = fields.filter((f) => f !== 'leadStatus' && f !== 'notes');
  if (plain.length > 0) events.push({ kind: 'updated', data: { fields: plain } });
  if (fields.includes('leadStatus'))
    events.push({ kind: 'lead_status_changed', data: { from: current.leadStatus, to: next.leadStatus } });
  if (fields.includes('notes')) events.push({ kind: 'notes_changed', data: { notes: next.notes } });
  return {
    fields,
    values,
    handlesChanged: fields.includes('networks'),
    groupsChanged: fields.includes('groupIds'),
    events,
  };
}

/** The events of a new contact: created, and its first lead status (the start of its history). */
export function creationEvents(values: ContactValues): ContactEvent[] {
  return [
    { kind: 'created', data: { name: values.name } },
    { kind: 'lead_status_changed', data: { from: null, to: values.leadStatus } },
  ];
}
