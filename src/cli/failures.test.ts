import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../test/helpers/context.ts';
import { insertUser } from '../modules/auth/auth.repository.ts';
import { failureMessage } from './failures.ts';

const ctx = useTestContext();

describe('tmw failure messages', () => {
  it('give a statement the database refused in one line, without the statement or its values', async () => {
    const user = await ctx.newUser();
    const passwordHash = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo';
    const error = await insertUser(ctx.database.db, { email: user.email, passwordHash }).catch((e) => e);
    const message = failureMessage(error);
    expect(message).toMatch(/^tmw: it already exists \(\w+\)$/);
    expect(message).not.toContain(user.email);
  });

  it('give an error of unknown kind by its kind only', () => {
    expect(failureMessage(new TypeError(`cannot read ${'$argon2id$secret'}`))).toBe(
      'tmw: the command failed unexpectedly (TypeError)',
    );
  });
});
