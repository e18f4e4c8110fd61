import type { LeadStatus } from '../../db/schema/index.ts';
import { normaliseEmail } from '../../shared/email.ts';
import type { ErrorDetail } from '../../shared/errors.ts';
import { normalisePhone } from './phone.ts';

/** The fields of a contact a client writes (create without `team_id`, or a patch). */
export type ContactInput = {
  name?: string | undefined;
  email?: string | null | undefined;
  phone?: string | null | undefined;
  phoneCountry?: string | undefined;
  company?: string | null | undefined;
  role?: string | null | undefined;
  networks?: { network: string; handle: string }[] | undefined;
  tags?: string[] | undefined;
  groupIds?: number[] | undefined;
  leadStatus?: LeadStatus | undefined;
  notes?: string | null | undefined;
  userId?: string | null | undefined;
};

/** One handle as stored: the network in lower case, the handle as given and the key `resolve` matches. */
export type HandleValue = { network: string; handle: string; handleKey: string };

/** The stored form of the fields an input gives (only those), with every problem found on the way. */
export type NormalisedInput = {
  scalars: {
    name?: string;
    email?: string | null;
    phone?: string | null;
    company?: string | null;
    role?: string | null;
    tags?: string[];
    leadStatus?: LeadStatus;
    notes?: string | null;
    userId?: string | null;
  };
  handles?: HandleValue[];
  groupIds?: number[];
  problems: ErrorDetail[];
};

/** What `resolve` and the unique index match a handle by: no surrounding spaces, no leading @, lower case. */
export const handleKeyOf = (handle: string) => handle.trim().replace(/^@+/, '').toLowerCase();

export const networkOf = (network: string) => network.toLowerCase();

function handlesOf(networks: NonNullable<ContactInput['networks']>, problems: ErrorDetail[]) {
  const seen = new Set<string>();
  return networks.map(({ network, handle }, i): HandleValue => {
    const value = { network: networkOf(network), handle, handleKey: handleKeyOf(handle) };
    const path = `/body/networks/${i}/handle`;
    if (value.handleKey === '') problems.push({ path, message: 'must have more than spaces and @' });
    const key = JSON.stringify([value.network, value.handleKey]);
    if (seen.has(key)) problems.push({ path, message: 'repeats an earlier handle on the same network' });
    seen.add(key);
    return value;
  });
}

function phoneOf(input: ContactInput, problems: ErrorDetail[]): string | null | undefined {
  if (input.phoneCountry !== undefined && (input.phone === undefined || input.phone === null)) {
    problems.push({ path: '/body/phoneCountry', message: 'is only read together with phone' });
  }
  if (input.phone === undefined || input.phone === null) return input.phone;
  const result = normalisePhone(input.phone, input.phoneCountry);
  if ('e164' in result) return result.e164;
  problems.push({ path: `/body/${result.field}`, message: result.problem });
  return undefined;
}

/** Normalises what an input gives: trimmed name, e-mail in stored form, phone in E.164, handle keys. */
export function normaliseInput(input: ContactInput): NormalisedInput {
  const problems: ErrorDetail[] = [];
  const { phone: _phone, phoneCountry: _country, networks, groupIds, ...rest } = input;
  const scalars: NormalisedInput['scalars'] = {};
  for (const [key, value] of Object.entries(rest)) {
    if (value !== undefined) (scalars as Record<string, unknown>)[key] = value;
  }
  if (scalars.name !== undefined) scalars.name = scalars.name.trim();
  if (typeof scalars.email === 'string') scalars.email = normaliseEmail(scalars.email);
  const phone = phoneOf(input, problems);
  if (phone !== undefined) scalars.phone = phone;
  return {
    scalars,
    ...(networks === undefined ? {} : { handles: handlesOf(networks, problems) }),
    ...(groupIds === undefined ? {} : { groupIds: [...groupIds].sort((a, b) => a - b) }),
    problems,
  };
}
