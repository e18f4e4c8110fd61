import { describe, expect, it } from 'vitest';
import { normalisePhone } from './phone.ts';

describe('phone numbers', () => {
  it('writes numbers in international format as E.164, whatever their punctuation', () => {
    for (const [text, e164] of [
      ['+49 30 123456', '+4930123456'],
      ['+49 (0)30 123456', '+4930123456'],
      ['+1 (415) 555-0132', '+14155550132'],
      ['+44 7911 123456', '+447911123456'],
      ['+33 6 12 34 56 78', '+33612345678'],
      ['  +81-3-1234-5678  ', '+81312345678'],
      ['+４９ ３０ １２３４５６', '+4930123456'],
    ]) {
      expect(normalisePhone(text!), text).toEqual({ e164 });
    }
  });

  it('reads national numbers with the country they are dialled in', () => {
    expect(normalisePhone('030 123456', 'DE')).toEqual({ e164: '+4930123456' });
    expect(normalisePhone('030 123456', 'de')).toEqual({ e164: '+4930123456' });
    expect(normalisePhone('(415) 555-0132', 'US')).toEqual({ e164: '+14155550132' });
    expect(normalisePhone('07911 123456', 'GB')).toEqual({ e164: '+447911123456' });
    // A number with its country code wins over the hint.
    expect(normalisePhone('+44 7911 123456', 'DE')).toEqual({ e164: '+447911123456' });
  });

  it('refuses what is not a phone number, naming the field at fault', () => {
    const phone = (text: string, country?: string) => {
      const result = normalisePhone(text, country);
      expect('problem' in result, text).toBe(true);
      return result as { problem: string; field: string };
    };
    expect(phone('030 123456')).toMatchObject({
      field: 'phone',
      problem: expect.stringContaining('phoneCountry'),
    });
    for (const text of ['+49', '+999 1234', 'abc', '12', '+1 415 555 01', '+1 415 555 0132 99999']) {
      expect(phone(text).field, text).toBe('phone');
    }
    expect(phone('+49 30 123456 ext. 12').problem).toContain('extension');
    expect(phone('030 123456', 'XX')).toMatchObject({ field: 'phoneCountry' });
    expect(phone('not a number', 'DE')).toMatchObject({ field: 'phone', problem: 'is not a phone number' });
  });
});
