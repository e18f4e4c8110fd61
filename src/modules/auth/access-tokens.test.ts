import { exportSPKI, generateKeyPair, jwtVerify } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { TestClock, useTestContext } from '../../../test/helpers/context.ts';
import { forgeAccessToken, type SessionClaims, sessionOf, unsignedToken } from './fixtures/tokens.ts';

// A pass-through spy on the JWT library, to see when the signature is really checked.
vi.mock('jose', async (importOriginal) => {
  const actual = await importOriginal<typeof import('jose')>();
  return { ...actual, jwtVerify: vi.fn(actual.jwtVerify) };
});

const clock = new TestClock();
const ctx = useTestContext({ clock });

const me = (token: string) => ctx.request({ method: 'GET', url: '/api/v1/auth/me', token });
const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

async function expectRefused(token: string, what: string) {
  const res = await me(token);
  expect(res.statusCode, what).toBe(401);
  expect(res.body, what).toBe('{"error":"Unauthorized"}');
}

async function liveSession(): Promise<SessionClaims & { token: string }> {
  const user = await ctx.newUser();
  return { ...sessionOf(user.token), token: user.token };
}

describe('access tokens', () => {
  it('accepts a hand-built token that matches what the service issues (the control for the cases below)', async () => {
    const session = await liveSession();
    const token = await forgeAccessToken(ctx.config, session, { nowSeconds: nowSeconds() });
    const res = await me(token);
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(session.sub);
  });

  it('refuses an unsigned token (alg: none)', async () => {
    const session = await liveSession();
    const now = nowSeconds();
    await expectRefused(
      unsignedToken({
        sub: session.sub,
        sid: session.sid,
        token_use: 'access',
        iss: ctx.config.auth.issuer,
        aud: ctx.config.auth.audience,
        iat: now,
        nbf: now,
        exp: now + 300,
      }),
      'alg none',
    );
    // The genuine token with its signature stripped.
    const [header, payload] = session.token.split('.');
    await expectRefused(`${header}.${payload}.`, 'signature removed');
  });

  it('refuses a token signed with another secret', async () => {
    const session = await liveSession();
    const otherSecret = new TextEncoder().encode('another-secret-of-at-least-thirty-two-bytes');
    await expectRefused(
      await forgeAccessToken(ctx.config, session, { key: otherSecret, nowSeconds: nowSeconds() }),
      'wrong secret',
    );
    const [header, payload, signature] = session.token.split('.');
    const flipped = `${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
    await expectRefused(`${header}.${payload}.${flipped}`, 'tampered signature');
    const otherPayload = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(payload!, 'base64url').toString()),
        sub: crypto.randomUUID(),
      }),
    ).toString('base64url');
    await expectRefused(`${header}.${otherPayload}.${signature}`, 'tampered payload');
  });

  it('refuses the right secret with a different issuer or audience', async () => {
    const session = await liveSession();
    const now = nowSeconds();
    for (const claims of [
      { iss: 'someone-else' },
      { aud: 'another-api' },
      { aud: [ctx.config.auth.audience.toUpperCase()] },
    ]) {
      await expectRefused(
        await forgeAccessToken(ctx.config, session, { claims, nowSeconds: now }),
        JSON.stringify(claims),
      );
    }
  });

  it('refuses an expired token, by its own claims and by the clock moving past its lifetime', async () => {
    const session = await liveSession();
    const now = nowSeconds();
    await expectRefused(
      await forgeAccessToken(ctx.config, session, {
        claims: { iat: now - 600, nbf: now - 600, exp: now - 1 },
        nowSeconds: now,
      }),
      'exp in the past',
    );

    // Cached after its first use, the genuine token must still expire on time.
    expect((await me(session.token)).statusCode).toBe(200);
    clock.advance(ctx.config.auth.accessTokenTtlSeconds * 1000 + 1000);
    await expectRefused(session.token, 'past its lifetime');
  });

  it('refuses a token that is not valid yet (nbf in the future)', async () => {
    const session = await liveSession();
    const now = nowSeconds();
    await expectRefused(
      await forgeAccessToken(ctx.config, session, {
        claims: { nbf: now + 120, exp: now + 600 },
        nowSeconds: now,
      }),
      'nbf in the future',
    );
  });

  it('refuses tokens missing sid, token_use, sub, exp, iat or nbf, or of another kind', async () => {
    const session = await liveSession();
    const now = nowSeconds();
    for (const omit of ['sid', 'token_use', 'sub', 'exp', 'iat', 'nbf']) {
      await expectRefused(
        await forgeAccessToken(ctx.config, session, { omit: [omit], nowSeconds: now }),
        omit,
      );
    }
    for (const claims of [
      { token_use: 'refresh' },
      { token_use: 'id' },
      { sid: 42 },
      { sid: 'not-a-session-id' },
      { sub: 'not-a-user-id' },
      { sid: crypto.randomUUID() },
      { sub: crypto.randomUUID() },
    ]) {
      await expectRefused(
        await forgeAccessToken(ctx.config, session, { claims, nowSeconds: now }),
        JSON.stringify(claims),
      );
    }
  });

  it('refuses asymmetric algorithms and HS256 keyed with a public key (key confusion)', async () => {
    const session = await liveSession();
    const now = nowSeconds();
    for (const alg of ['RS256', 'ES256', 'PS256', 'EdDSA']) {
      const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
      await expectRefused(
        await forgeAccessToken(ctx.config, session, { alg, key: privateKey, nowSeconds: now }),
        alg,
      );
      const pem = await exportSPKI(publicKey);
      for (const secret of [pem, pem.trim()]) {
        await expectRefused(
          await forgeAccessToken(ctx.config, session, {
            key: new TextEncoder().encode(secret),
            nowSeconds: now,
          }),
          `HS256 keyed with the ${alg} public key`,
        );
      }
    }
    for (const alg of ['HS384', 'HS512']) {
      await expectRefused(await forgeAccessToken(ctx.config, session, { alg, nowSeconds: now }), alg);
    }
  });

  it('refuses a token whose session was revoked, though its signature and claims are valid', async () => {
    const session = await liveSession();
    const forged = await forgeAccessToken(ctx.config, session, { nowSeconds: nowSeconds() });
    expect((await me(forged)).statusCode).toBe(200);
    const out = await ctx.request({ method: 'POST', url: '/api/v1/auth/logout', token: session.token });
    expect(out.statusCode).toBe(204);
    await expectRefused(session.token, 'the logged-out token');
    await expectRefused(forged, 'another token of the revoked session');
  });

  it('refuses garbage shaped like a JWT', async () => {
    for (const token of [
      'a.b.c',
      'eyJhbGciOiJIUzI1NiJ9.e30.',
      '...',
      'e30.e30.e30',
      `${'a'.repeat(3000)}.b.c`,
    ]) {
      await expectRefused(token, token.slice(0, 40));
    }
  });

  it('checks the signature once per token: later requests use the cache', async () => {
    const session = await liveSession();
    const verify = vi.mocked(jwtVerify);
    verify.mockClear();
    for (let i = 0; i < 3; i++) expect((await me(session.token)).statusCode).toBe(200);
    expect(verify).toHaveBeenCalledTimes(1);
  });
});
