import { type Algorithm, hash, verify } from '@node-rs/argon2';

const ARGON2ID = 2 as Algorithm; // Algorithm.Argon2id (a const enum, not importable as a value)

/** argon2id cost. Each hash records its own parameters, so a change applies to new hashes only. */
export type PasswordHashing = { memoryKib: number; iterations: number };

/** OWASP's argon2id recommendation: 19 MiB of memory, 2 iterations, 1 lane. */
export const OWASP_PASSWORD_HASHING: PasswordHashing = { memoryKib: 19_456, iterations: 2 };

/** Hashes and checks passwords with argon2id at the configured cost. */
export class Passwords {
  readonly #params;
  #dummy: Promise<string> | undefined;

  constructor(settings: PasswordHashing = OWASP_PASSWORD_HASHING) {
    this.#params = {
      algorithm: ARGON2ID,
      memoryCost: settings.memoryKib,
      timeCost: settings.iterations,
      parallelism: 1,
    } as const;
  }

  hash(password: string): Promise<string> {
    return hash(password, this.#params);
  }

  /** Checks a password against a stored hash; with no hash it still spends the same time and answers false. */
  async verify(storedHash: string | null | undefined, password: string): Promise<boolean> {
    // Verified against when the e-mail is unknown, so both failures cost the same time.
    this.#dummy ??= this.hash('not-a-real-password');
    try {
      const ok = await verify(storedHash ?? (await this.#dummy), password);
      return ok && Boolean(storedHash);
    } catch {
      return false;
    }
  }
}
