import type { CountryCode } from 'libphonenumber-js/max';
import { lazyRequire } from '../../shared/lazy-module.ts';

const libphonenumber = lazyRequire<typeof import('libphonenumber-js/max')>('libphonenumber-js/max');

/** What a phone number became: its E.164 form, or why it could not be read. */
export type PhoneResult = { e164: string } | { problem: string; field: 'phone' | 'phoneCountry' };

/**
 * A phone number in E.164 (`+4930123456`). Numbers in international format (`+49 30 123456`, any spacing
 * or punctuation) stand alone; a national number (`030 123456`) needs `country`, the ISO 3166 code of the
 * country it is dialled in. Extensions are refused rather than dropped, as E.164 has no place for them.
 */
export function normalisePhone(text: string, country?: string): PhoneResult {
  const { isSupportedCountry, parsePhoneNumberFromString } = libphonenumber();
  const region = country?.toUpperCase();
  if (region !== undefined && !isSupportedCountry(region))
    return {
      field: 'phoneCountry',
      problem: 'is not a country code this service knows (ISO 3166, e.g. DE or US)',
    };
  const parsed = parsePhoneNumberFromString(text, region as CountryCode | undefined);
  if (!parsed) {
    return {
      field: 'phone',
      problem:
        region !== undefined || text.trim().startsWith('+')
          ? 'is not a phone number'
          : 'is not a phone number in international format (+ and the country code), and no phoneCountry was given',
    };
  }
  if (parsed.ext) return { field: 'phone', problem: 'has an extension, which an E.164 number cannot hold' };
  if (!parsed.isValid()) return { field: 'phone', problem: 'is not a valid phone number for its country' };
  return { e164: parsed.number };
}
