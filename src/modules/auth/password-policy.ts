import { withoutTrailing } from '../../shared/text.ts';

// The most used passwords (lower case, without the digits and symbols people append): NIST SP 800-63B
// asks to refuse known-compromised and trivially guessable choices rather than to impose composition rules.
const COMMON = new Set([
  'password',
  'passw0rd',
  'passwort',
  'motdepasse',
  'contrasena',
  'qwerty',
  'qwertyui',
  'qwertyuiop',
  'qwertz',
  'azerty',
  'asdfgh',
  'asdfghjkl',
  'zxcvbnm',
  'iloveyou',
  'letmein',
  'welcome',
  'admin',
  'administrator',
  'changeme',
  'secret',
  'monkey',
  'dragon',
  'master',
  'shadow',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'superman',
  'batman',
  'trustno',
  'whatever',
  'starwars',
  'michael',
  'jennifer',
  'computer',
  'internet',
  'login',
  'music',
  'musician',
]);

function isSequence(value: string): boolean {
  const step = value.charCodeAt(1) - value.charCodeAt(0);
  if (Math.abs(step) !== 1) return false;
  for (let i = 2; i < value.length; i++) {
    if (value.charCodeAt(i) - value.charCodeAt(i - 1) !== step) return false;
  }
  return true;
}

/**
 * Why a new password is too weak, or null when it is acceptable. The length bounds are in the request
 * schema; this refuses what a guesser tries first: common passwords (also with digits or symbols
 * appended), a few repeated characters, simple runs like `12345678`, and the account's own e-mail.
 */
export function passwordWeakness(password: string, email: string): string | null {
  const lower = password.toLowerCase();
  if (new Set(lower).size < 4) return 'must use more than three different characters';
  if (isSequence(lower)) return 'must not be a simple run of characters';
  const stem = withoutTrailing(lower, (c) => c < 'a' || c > 'z');
  if (COMMON.has(lower) || COMMON.has(stem)) return 'is too common';
  const address = email.toLowerCase();
  const localPart = address.split('@')[0] ?? '';
  if ([address, localPart].some((own) => lower === own || stem === own))
    return 'must not be the e-mail address';
  return null;
}
