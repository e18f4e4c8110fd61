import { eq } from 'drizzle-orm';
import { decodeProtectedHeader, SignJWT } from 'jose';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { requestAccountDeletion } from '../../../test/helpers/account.ts';
import { TEST_SECRETS, useTestContext } from '../../../test/helpers/context.ts';
import { buildApp } from '../../app.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { teamMembers, users } from '../../db/schema/index.ts';
import { TestOidcProvider } from './fixtures/oidc-provider.ts';
import { buildSecondApp, requesterFor } from './fixtures/second-app.ts';
import { forgeAccessToken } from './fixtures/tokens.ts';

const provider = await TestOidcProvider.start();
afterAll(() => provider.close());

const ctx = useTestContext({ env: provider.env });

const me = (token: string) => ctx.request({ method: 'GET', url: '/api/v1/auth/me', token });
const subject = () => `sub-${ctx.unique()}`;
const address = () => `oidc-${ctx.unique()}@example.test`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

async function expectRefused(token: string, what: string) {
  const res = await me(token);
  expect(res.statusCode, what).toBe(401);
  expect(res.body, what).toBe('{"error":"Unauthorized"}');
}

async function usersWithSubject(sub: string) {
  return ctx.database.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.externalSubject, `${provider.issuer}|${sub}`));
}

/** Whether the account's address counts as verified (what was sent to it alone reaches it). */
async function isVerified(userId: string) {
  const [row] = await ctx.database.db
    .select({ at: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, userId));
  return row?.at !== null && row?.at !== undefined;
}

describe('external OpenID Connect provider', () => {
  it('accepts a provider token and provisions its user on first sight, the same user after', async () => {
    const sub = subject();
    const email = address();
    const first = await me(await provider.sign({ sub, email, email_verified: true, name: 'Ola' }));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ email, name: 'Ola', teams: [] });
    expect(await usersWithSubject(sub)).toEqual([{ id: first.json().id, email }]);
    expect(await isVerified(first.json().id)).toBe(true);

    const again = await me(await provider.sign({ sub, email, email_verified: true, jti: 'another' }));
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    expect(await usersWithSubject(sub)).toHaveLength(1);
  });

  it('provisions one user when the first requests of a new subject arrive together', async () => {
    const sub = subject();
    const email = address();
    const tokens = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) => provider.sign({ sub, email, email_verified: true, jti: `t${n}` })),
    );
    const results = await Promise.all(tokens.map(me));
    expect(results.map((res) => res.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(results.map((res) => res.json().id)).size).toBe(1);
    expect(await usersWithSubject(sub)).toHaveLength(1);
  });

  it('shows the provisioned user their teams like any other user', async () => {
    const token = await provider.sign({ sub: subject(), email: address(), email_verified: true });
    const id = (await me(token)).json().id;
    const team = await ctx.newTeam();
    await ctx.database.db.insert(teamMembers).values({
      teamId: team.id,
      userId: id,
      role: 'admin',
    });
    expect((await me(token)).json().teams).toEqual([{ id: team.id, name: team.name, role: 'admin' }]);
  });

  it('refuses a wrong audience, a wrong issuer, an expired or not-yet-valid token, and one without exp', async () => {
    const now = nowSeconds();
    const base = { sub: subject(), email: address(), email_verified: true };
    for (const claims of [
      { aud: 'another-api' },
      { aud: ctx.config.auth.audience },
      { iss: 'https://evil.example' },
      { iss: ctx.config.auth.issuer },
      { iat: now - 600, exp: now - 1 },
      { nbf: now + 300 },
      { exp: undefined },
      { sub: undefined },
    ]) {
      await expectRefused(await provider.sign({ ...base, ...claims }), JSON.stringify(claims));
    }
  });

  it('refuses a token signed by a key the provider does not publish, and does not refetch for every one', async () => {
    // Warm the key set, so the refetch cooldown starts now.
    expect(
      (await me(await provider.sign({ sub: subject(), email: address(), email_verified: true }))).statusCode,
    ).toBe(200);
    const fetches = provider.fetches;
    const stranger = await TestOidcProvider.unpublishedKey();
    for (let i = 0; i < 5; i++) {
      await expectRefused(
        await provider.sign({ sub: subject(), email: address(), email_verified: true }, { key: stranger }),
        'unknown kid',
      );
    }
    await expectRefused(
      await provider.sign(
        { sub: subject(), email: address() },
        { key: stranger, kid: provider.currentKey.kid },
      ),
      'known kid, other key',
    );
    expect(provider.fetches - fetches).toBeLessThanOrEqual(1);
  });

  it('refuses algorithm confusion: HS256 keyed with the provider’s public key, and alg none', async () => {
    const pem = await provider.publicKeyPem();
    const now = nowSeconds();
    const hmac = await new SignJWT({ sub: subject(), email: address(), email_verified: true })
      .setProtectedHeader({ alg: 'HS256', kid: provider.currentKey.kid })
      .setIssuer(provider.issuer)
      .setAudience(provider.audience)
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(new TextEncoder().encode(pem));
    await expectRefused(hmac, 'HS256 with the public key');
    const [header, payload] = (await provider.sign({ sub: subject(), email: address() })).split('.');
    const none = Buffer.from(JSON.stringify({ alg: 'none', kid: provider.currentKey.kid })).toString(
      'base64url',
    );
    await expectRefused(`${none}.${payload}.`, 'alg none');
    await expectRefused(`${header}.${payload}.`, 'signature removed');
  });

  it('accepts tokens of a rotated key: an unknown kid makes it fetch the key set again', async () => {
    const sub = subject();
    const email = address();
    const before = await me(await provider.sign({ sub, email, email_verified: true }));
    expect(before.statusCode).toBe(200);

    const fetches = provider.fetches;
    const newKid = await provider.rotate();
    const rotated = await provider.sign({ sub, email, email_verified: true });
    expect(decodeProtectedHeader(rotated).kid).toBe(newKid);
    // jose refetches for an unknown kid at most once per 30-second cooldown; step its clock past that.
    const realNow = Date.now.bind(Date);
    const later = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 31_000);
    try {
      const res = await me(rotated);
      expect(res.statusCode).toBe(200);
      expect(res.json().id).toBe(before.json().id);
    } finally {
      later.mockRestore();
    }
    expect(provider.fetches).toBe(fetches + 1);
  });

  describe('linking to an existing account by e-mail', () => {
    it('links only when the provider vouches for the address (email_verified: true)', async () => {
      const local = await ctx.newUser();
      const sub = subject();
      for (const email_verified of [undefined, false, 'true', 1]) {
        await expectRefused(
          await provider.sign({ sub, email: local.email.toUpperCase(), email_verified }),
          `email_verified ${String(email_verified)}`,
        );
      }
      expect(await usersWithSubject(sub)).toEqual([]);
      expect(await isVerified(local.id)).toBe(false);

      const linked = await me(
        await provider.sign({ sub, email: local.email.toUpperCase(), email_verified: true }),
      );
      expect(linked.statusCode).toBe(200);
      expect(linked.json().id).toBe(local.id);
      // The provider vouched for the address: it is verified from now on.
      expect(await isVerified(local.id)).toBe(true);
      // Known by its subject from now on, even without an e-mail claim.
      const bySubject = await me(await provider.sign({ sub }));
      expect(bySubject.json().id).toBe(local.id);
      // The password still works.
      const login = await ctx.request({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: local.email, password: local.password },
      });
      expect(login.statusCode).toBe(200);
    });

    it('refuses a first token whose e-mail is not verified: no account claims the address', async () => {
      const sub = subject();
      const email = address();
      for (const email_verified of [undefined, false, 'true', 1]) {
        await expectRefused(
          await provider.sign({ sub, email, email_verified }),
          `email_verified ${String(email_verified)}`,
        );
      }
      expect(await usersWithSubject(sub)).toEqual([]);
      const claimed = await ctx.database.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, email));
      expect(claimed).toEqual([]);

      // The address stays free: its owner signs up with it (and gets the invites sent to it).
      const owner = await ctx.newUser({ email });
      // A verified token of the same subject later links to that account like any verified first token.
      const verified = await me(await provider.sign({ sub, email, email_verified: true }));
      expect(verified.json().id).toBe(owner.id);
    });

    it('never re-links an account already linked to another subject', async () => {
      const local = await ctx.newUser();
      const first = await me(
        await provider.sign({ sub: subject(), email: local.email, email_verified: true }),
      );
      expect(first.json().id).toBe(local.id);
      await expectRefused(
        await provider.sign({ sub: subject(), email: local.email, email_verified: true }),
        'second subject',
      );
    });

    it('refuses a first token without a usable e-mail (nothing to provision the account with)', async () => {
      for (const email of [undefined, '', 'not-an-address', 42]) {
        await expectRefused(
          await provider.sign({ sub: subject(), email, email_verified: true }),
          String(email),
        );
      }
    });
  });

  it('ends a provider-token session on logout, in this process and in another one', async () => {
    const token = await provider.sign({ sub: subject(), email: address(), email_verified: true });
    const appB = await buildSecondApp(ctx);
    try {
      const onB = () => requesterFor(appB)({ method: 'GET', url: '/api/v1/auth/me', token });
      expect((await me(token)).statusCode).toBe(200);
      expect((await onB()).statusCode).toBe(200);
      const out = await ctx.request({ method: 'POST', url: '/api/v1/auth/logout', token });
      expect(out.statusCode).toBe(204);
      await expectRefused(token, 'after logout');
      expect((await onB()).statusCode).toBe(401);
      // A new token of the provider opens a new session.
      const fresh = await provider.sign({ sub: subject(), email: address(), email_verified: true });
      expect((await me(fresh)).statusCode).toBe(200);
    } finally {
      await appB.close();
    }
  });

  it('refuses provider tokens of a user whose account deletion was requested', async () => {
    const sub = subject();
    const token = await provider.sign({ sub, email: address(), email_verified: true });
    expect((await requestAccountDeletion(ctx, token)).statusCode).toBe(202);
    await expectRefused(token, 'cached token');
    await expectRefused(await provider.sign({ sub }), 'new token');
  });

  it('keeps the built-in sign-in working next to the provider', async () => {
    const user = await ctx.newUser();
    expect((await me(user.token)).statusCode).toBe(200);
    const { sub, sid } = { sub: user.id, sid: crypto.randomUUID() };
    await expectRefused(
      await forgeAccessToken(ctx.config, { sub, sid }),
      'our token with an unknown session',
    );
  });
});

describe('the JWKS address', () => {
  const build = (jwksUrl: string) =>
    buildApp({
      config: loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        OIDC_ISSUER: 'https://idp.example',
        OIDC_JWKS_URL: jwksUrl,
        OIDC_AUDIENCE: 'api',
      }),
      database: ctx.database,
      secrets: TEST_SECRETS,
      logger: false,
    });

  it('must be https; plain http is allowed only to a loopback host', async () => {
    for (const url of [
      'http://idp.example/jwks',
      'http://10.0.0.8/jwks',
      'http://localhost.evil.example/jwks',
    ]) {
      await expect(build(url), url).rejects.toBeInstanceOf(ConfigError);
    }
    for (const url of [
      'https://idp.example/.well-known/jwks.json',
      'http://127.0.0.1:8080/jwks',
      'http://localhost/jwks',
      'http://[::1]:9000/jwks',
    ]) {
      const app = await build(url);
      await app.close();
    }
  });
});
