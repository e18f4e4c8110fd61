import { type Algorithm, hash, verify } from '@node-rs/argon2';

// OWASP's argon2id recommendation: 19 MiB of memory, 2 iterations, 1 lane.
const ARGON2ID = 2 as Algorithm; // Algorithm.Argon2id (a const enum, not importable as a value)
const PARAMS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, PARAMS);
}

// Verified against when the e-mail is unknown, so both failures cost the same time.
const DUMMY_HASH = hash('not-a-real-password', PARAMS);

/** Checks a password against a stored hash; with no hash it still spends the same time and answers false. */
export async function verifyPassword(
  storedHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  try {
    const ok = await verify(storedHash ?? (await DUMMY_HASH), password);
    return ok && Boolean(storedHash);
  } catch {
    return false;
  }
}
