import { normaliseEmail } from '../../shared/email.ts';
import { errors } from '../../shared/errors.ts';
import { handleKeyOf, networkOf } from './contact-input.ts';
import type { ContactLookup } from './contacts.repository.ts';
import { normalisePhone } from './phone.ts';

export type ResolveParams = {
  network?: string | undefined;
  handle?: string | undefined;
  email?: string | undefined;
  phone?: string | undefined;
  phoneCountry?: string | undefined;
};

const refuse = (path: string, message: string) => errors.validation([{ path: `/query${path}`, message }]);

/**
 * The one lookup a `resolve` request asks for, in the form contacts are stored in: `network` with `handle`,
 * `email`, or `phone` (with `phoneCountry` for a national number). None or several is 400.
 */
export function lookupOf(q: ResolveParams): ContactLookup {
  const kinds = [
    q.network !== undefined || q.handle !== undefined,
    q.email !== undefined,
    q.phone !== undefined,
  ].filter(Boolean).length;
  if (kinds !== 1) throw refuse('', 'give exactly one lookup: network and handle, email, or phone');
  if (q.phoneCountry !== undefined && q.phone === undefined)
    throw refuse('/phoneCountry', 'is only read together with phone');
  if (q.email !== undefined) return { kind: 'email', email: normaliseEmail(q.email) };
  if (q.phone !== undefined) {
    const result = normalisePhone(q.phone, q.phoneCountry);
    if ('problem' in result) throw refuse(`/${result.field}`, result.problem);
    return { kind: 'phone', phone: result.e164 };
  }
  if (q.network === undefined) throw refuse('/network', 'is needed with handle');
  if (q.handle === undefined) throw refuse('/handle', 'is needed with network');
  const handleKey = handleKeyOf(q.handle);
  if (handleKey === '') throw refuse('/handle', 'must have more than spaces and @');
  return { kind: 'handle', network: networkOf(q.network), handleKey };
}
