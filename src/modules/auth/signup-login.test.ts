import { verify as argon2Verify } from '@node-rs/argon2';
import { describe, expect, it, vi } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';
import { findUserByEmail, insertUser } from './auth.repository.ts';

// A pass-through spy on the third-party hash library: both failure paths must really run argon2.
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...actual, verify: vi.fn(actual.verify) };
});

const ctx = useTestContext({ env: { PASSWORD_HASH_MEMORY_KIB: '19456', PASSWORD_HASH_ITERATIONS: '2' } });

const signup = (payload: Record<string, unknown>) =>
  ctx.request({ method: 'POST', url: '/api/v1/auth/signup', payload });
const login = (payload: Record<string, unknown>, remoteAddress?: string) =>
  ctx.request({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
const email = () => `person-${ctx.unique()}@example.test`;
const PASSWORD = 'correct horse battery';

function expectTokenResponse(body: Record<string, unknown>, user: { email: string; name: string | null }) {
  expect(Object.keys(body).sort()).toEqual([
    'access_token',
    'expires_in',
    'refresh_token',
    'token_type',
    'user',
  ]);
  expect(body).toEqual({
    access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
    refresh_token: expect.stringMatching(/^[\w-]{43}$/),
    token_type: 'Bearer',
    expires_in: 900,
    user: {
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: user.email,
      name: user.name,
      emailVerified: false,
    },
  });
}

describe('sign-up', () => {
  it('answers 201 with exactly the session token shape, and the access token works', async () => {
    const address = email();
    const res = await signup({ email: address, password: PASSWORD, name: 'Ada' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expectTokenResponse(body, { email: address, name: 'Ada' });
    expect(body.access_token).not.toBe(body.refresh_token);

    const me = await ctx.request({ method: 'GET', url: '/api/v1/auth/me', token: body.access_token });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: body.user.id, email: address, name: 'Ada', teams: [] });
  });

  it('stores an argon2id hash at the configured cost, never the password', async () => {
    const address = email();
    await signup({ email: address, password: PASSWORD });
    const user = await findUserByEmail(ctx.database.db, address);
    expect(user?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(user?.passwordHash).not.toContain(PASSWORD);
  });

  it('gives a user without a name `name: null`', async () => {
    const address = email();
    const res = await signup({ email: address, password: PASSWORD });
    expect(res.statusCode).toBe(201);
    expectTokenResponse(res.json(), { email: address, name: null });
  });

  it('keeps e-mails unique regardless of case (409 conflict)', async () => {
    const address = email();
    expect((await signup({ email: address, password: PASSWORD })).statusCode).toBe(201);
    for (const again of [address, address.toUpperCase(), address.replace('person', 'PERSON')]) {
      const res = await signup({ email: again, password: `${PASSWORD}!` });
      expect(res.statusCode, again).toBe(409);
      expect(res.json()).toEqual({ error: expect.any(String), code: 'conflict' });
    }
  });

  it('refuses weak passwords with 400 validation_failed on /body/password', async () => {
    const address = email();
    for (const password of [
      '',
      'short',
      '1234567',
      'password',
      'Password1',
      '12345678',
      'qwertyuiop',
      'aaaaaaaaaaaa',
      'abababababab',
      '        ',
      address,
      address.split('@')[0]!,
    ]) {
      const res = await signup({ email: address, password });
      expect(res.statusCode, password).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().details).toEqual(
        expect.arrayContaining([{ path: '/body/password', message: expect.any(String) }]),
      );
    }
    // None of them created the account.
    expect((await signup({ email: address, password: PASSWORD })).statusCode).toBe(201);
  });

  it('refuses malformed e-mails and unknown fields with 400', async () => {
    for (const payload of [
      { email: 'not-an-email', password: PASSWORD },
      { email: email(), password: PASSWORD, role: 'admin' },
      { email: email() },
      { email: email(), password: PASSWORD, name: '' },
    ]) {
      const res = await signup(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
  });
});

describe('login', () => {
  it('answers 200 with the token shape, also with the e-mail in another case', async () => {
    const address = email();
    const created = (await signup({ email: address, password: PASSWORD, name: 'Bo' })).json();
    for (const given of [address, address.toUpperCase()]) {
      const res = await login({ email: given, password: PASSWORD });
      expect(res.statusCode, given).toBe(200);
      const body = res.json();
      expectTokenResponse(body, { email: address, name: 'Bo' });
      expect(body.user.id).toBe(created.user.id);
      const me = await ctx.request({ method: 'GET', url: '/api/v1/auth/me', token: body.access_token });
      expect(me.json().id).toBe(created.user.id);
    }
  });

  it('opens a new session on every login: new access and refresh tokens', async () => {
    const address = email();
    await signup({ email: address, password: PASSWORD });
    const first = (await login({ email: address, password: PASSWORD })).json();
    const second = (await login({ email: address, password: PASSWORD })).json();
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
  });

  it('answers a wrong password and an unknown e-mail identically, both after running argon2', async () => {
    const address = email();
    await signup({ email: address, password: PASSWORD });
    const verify = vi.mocked(argon2Verify);

    const attempt = async (payload: Record<string, unknown>) => {
      verify.mockClear();
      const started = performance.now();
      const res = await login(payload, '198.51.100.7');
      return { res, ms: performance.now() - started, argon2Calls: verify.mock.calls.length };
    };
    const wrongPassword = await attempt({ email: address, password: `${PASSWORD}?` });
    const unknownEmail = await attempt({ email: email(), password: PASSWORD });

    for (const { res, ms, argon2Calls } of [wrongPassword, unknownEmail]) {
      expect(res.statusCode).toBe(401);
      expect(res.body).toBe('{"error":"Unauthorized"}');
      expect(argon2Calls).toBe(1);
      expect(ms).toBeGreaterThan(3);
    }
    expect(unknownEmail.res.headers['content-type']).toBe(wrongPassword.res.headers['content-type']);
    expect(unknownEmail.res.body).toBe(wrongPassword.res.body);
  });

  it('refuses an account without a password (provisioned from a provider) with the same 401', async () => {
    const address = email();
    await insertUser(ctx.database.db, {
      email: address,
      externalSubject: `https://idp.test|${ctx.unique()}`,
    });
    const res = await login({ email: address, password: PASSWORD }, '198.51.100.8');
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe('{"error":"Unauthorized"}');
  });

  it('validates the login body (400) before looking anything up', async () => {
    for (const payload of [{ email: email() }, { password: PASSWORD }, { email: 1, password: PASSWORD }]) {
      const res = await login(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
  });
});

describe('sign-up switched off (SIGNUP_ENABLED=false)', () => {
  const closed = useTestContext({ env: { SIGNUP_ENABLED: 'false' } });

  it('makes POST /auth/signup an unknown route: 401 without a token, 404 with one', async () => {
    const res = await closed.request({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email: email(), password: PASSWORD },
    });
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe('{"error":"Unauthorized"}');

    const user = await closed.app.services.auth.signup(
      { email: email(), password: PASSWORD },
      { ip: '127.0.0.1', userAgent: undefined },
    );
    const withToken = await closed.request({
      method: 'POST',
      url: '/api/v1/auth/signup',
      token: user.access_token,
      payload: { email: email(), password: PASSWORD },
    });
    expect(withToken.statusCode).toBe(404);
    expect(withToken.json().code).toBe('not_found');
  });

  it('still lets existing users log in', async () => {
    const address = email();
    await closed.app.services.auth.signup(
      { email: address, password: PASSWORD },
      { ip: '::1', userAgent: '' },
    );
    const res = await closed.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: address, password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
  });
});
