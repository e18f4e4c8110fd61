import { createHash, X509Certificate } from 'node:crypto';
import { jwtVerify } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { TestClock, useTestContext } from '../../../test/helpers/context.ts';
import {
  describeSecurityMatrix,
  expectAreaAuthClasses,
  type MatrixCase,
} from '../../../test/helpers/security-matrix.ts';
import {
  checkDetachedSignature,
  GOOGLE_CLIENT_EMAIL,
  GOOGLE_ISSUER_ID,
  readZip,
  walletMaterial,
} from './wallet.test-support.ts';

const material = walletMaterial();
afterAll(material.cleanUp);
const clock = new TestClock(Date.parse('2031-05-06T10:00:00.000Z'));
const ctx = useTestContext({ env: material.env, clock });

const offer = async (token: string) => {
  const res = await ctx.request({ method: 'GET', url: '/api/v1/wallet/identity', token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { platforms: unknown[]; token: string; expiresAt: string };
};

const fetchPass = (platform: string, walletToken: string, bearer: string | undefined) =>
  ctx.request({
    method: 'GET',
    url: `/api/v1/wallet/identity/${platform}?token=${encodeURIComponent(walletToken)}`,
    token: bearer,
  });

const expectRefused = (res: { statusCode: number; json(): { code: string } }) => {
  expect(res.statusCode).toBe(403);
  expect(res.json().code).toBe('wallet_token_invalid');
};

/** The claims of a Google save link, once its signature verified with the service account's public key. */
async function saveLinkClaims(saveUrl: string) {
  expect(saveUrl.startsWith('https://pay.google.com/gp/v/save/')).toBe(true);
  const jwt = saveUrl.slice('https://pay.google.com/gp/v/save/'.length);
  const { payload, protectedHeader } = await jwtVerify(jwt, material.googlePublicKey, {
    issuer: GOOGLE_CLIENT_EMAIL,
    audience: 'google',
    currentDate: clock.now(),
  });
  expect(protectedHeader.alg).toBe('RS256');
  return payload as Record<string, unknown> & { payload: { genericObjects: Record<string, unknown>[] } };
}

const cases: MatrixCase[] = [
  {
    method: 'GET',
    path: '/api/v1/wallet/identity',
    teamScoped: false,
    build: () => ({ url: '/api/v1/wallet/identity' }),
  },
];

describe('GET /api/v1/wallet/identity', () => {
  it('names the available platforms and hands out a one-time token valid 5 minutes', async () => {
    const user = await ctx.newUser();
    const body = await offer(user.token);
    expect(body).toEqual({
      platforms: [
        { platform: 'apple', available: true },
        { platform: 'google', available: true },
      ],
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expiresAt: new Date(clock.now().getTime() + 5 * 60_000).toISOString(),
    });
    expect((await offer(user.token)).token).not.toBe(body.token);
  });

  it('declares any-token access (N); the pass route too, probed below with tokens of its own', async () => {
    await expectAreaAuthClasses(
      ctx,
      (r) => r.operationId === 'wallet.identity.offer',
      { 'GET /api/v1/wallet/identity': { auth: 'anyToken', extension: false } },
      cases,
    );
    const pass = ctx.app.routeTable.find((r) => r.operationId === 'wallet.identity.pass');
    expect(pass).toMatchObject({
      method: 'GET',
      path: '/api/v1/wallet/identity/{platform}',
      auth: { kind: 'anyToken' },
    });
  });
});

describe('GET /api/v1/wallet/identity/apple', () => {
  it('answers a pkpass: pass.json, a SHA-1 manifest of every file, and a detached PKCS#7 signature over it', async () => {
    const user = await ctx.newUser({ name: 'Maya Stone' });
    const res = await fetchPass('apple', (await offer(user.token)).token, user.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.apple.pkpass');
    expect(res.headers['content-disposition']).toBe('attachment; filename="identity.pkpass"');
    expect(res.headers['cache-control']).toBe('no-store');

    const files = readZip(res.rawPayload);
    expect([...files.keys()].sort()).toEqual([
      'icon.png',
      'icon@2x.png',
      'manifest.json',
      'pass.json',
      'signature',
    ]);
    const pass = JSON.parse(files.get('pass.json')!.toString('utf8'));
    expect(pass).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: 'pass.test.identity',
      teamIdentifier: 'ABCDE12345',
      organizationName: 'Test Label',
      serialNumber: `user-${user.id}`,
      generic: {
        primaryFields: [{ key: 'name', label: 'Name', value: 'Maya Stone' }],
        secondaryFields: [{ key: 'detail', label: 'Account', value: user.email }],
      },
    });
    expect(pass.barcodes[0]).toMatchObject({ message: `user-${user.id}`, format: 'PKBarcodeFormatQR' });

    const manifestBytes = files.get('manifest.json')!;
    const manifest = JSON.parse(manifestBytes.toString('utf8'));
    const signed = [...files.keys()].filter((name) => name !== 'manifest.json' && name !== 'signature');
    expect(Object.keys(manifest).sort()).toEqual(signed.sort());
    for (const name of signed)
      expect(manifest[name], name).toBe(createHash('sha1').update(files.get(name)!).digest('hex'));

    const signer = new X509Certificate(material.signerPem);
    const ca = new X509Certificate(material.caPem);
    expect(signer.verify(ca.publicKey)).toBe(true);
    const check = checkDetachedSignature(files.get('signature')!, manifestBytes, signer);
    expect(check).toMatchObject({
      signedData: true,
      detached: true,
      digestIsSha1: true,
      signatureVerifies: true,
    });
    expect(check.digest).toBe(check.contentDigest);
    expect(check.certificates).toEqual(expect.arrayContaining([signer.fingerprint256, ca.fingerprint256]));

    // It verifies with the pass certificate only, and over this manifest only.
    expect(checkDetachedSignature(files.get('signature')!, manifestBytes, ca).signatureVerifies).toBe(false);
    const tampered = Buffer.from(manifestBytes.toString('utf8').replace(/[0-9a-f]{40}/, '0'.repeat(40)));
    const forged = checkDetachedSignature(files.get('signature')!, tampered, signer);
    expect(forged.digest).not.toBe(forged.contentDigest);
  });
});

describe('GET /api/v1/wallet/identity/google', () => {
  it('answers a save link whose JWT (RS256, service account) carries a generic pass object', async () => {
    const user = await ctx.newUser({ name: 'Lou Reed' });
    const res = await fetchPass('google', (await offer(user.token)).token, user.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const claims = await saveLinkClaims(res.json().saveUrl);
    expect(claims).toMatchObject({
      iss: GOOGLE_CLIENT_EMAIL,
      aud: 'google',
      typ: 'savetowallet',
      iat: Math.floor(clock.now().getTime() / 1000),
      origins: [],
    });
    expect(claims.payload.genericObjects).toEqual([
      {
        id: `${GOOGLE_ISSUER_ID}.user-${user.id}`,
        classId: `${GOOGLE_ISSUER_ID}.identity`,
        state: 'ACTIVE',
        cardTitle: { defaultValue: { language: 'en', value: 'Test Label' } },
        header: { defaultValue: { language: 'en', value: 'Lou Reed' } },
        subheader: { defaultValue: { language: 'en', value: user.email } },
        barcode: { type: 'QR_CODE', value: `user-${user.id}` },
        hexBackgroundColor: '#1f2a44',
      },
    ]);
  });
});

describe('the one-time token', () => {
  it('works once, whatever the platform', async () => {
    const user = await ctx.newUser();
    const { token } = await offer(user.token);
    // A HEAD (a link preview) is no use of the token.
    const head = await ctx.request({
      method: 'HEAD',
      url: `/api/v1/wallet/identity/google?token=${token}`,
      token: user.token,
    });
    expect(head.statusCode).toBeGreaterThanOrEqual(400);
    expect((await fetchPass('google', token, user.token)).statusCode).toBe(200);
    expectRefused(await fetchPass('google', token, user.token));
    expectRefused(await fetchPass('apple', token, user.token));
  });

  it('is used by exactly one of two requests at the same time', async () => {
    const user = await ctx.newUser();
    for (let round = 0; round < 3; round++) {
      const { token } = await offer(user.token);
      const answers = await Promise.all([
        fetchPass('google', token, user.token),
        fetchPass('google', token, user.token),
        fetchPass('apple', token, user.token),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 403, 403]);
    }
  });

  it('expires 5 minutes after it was handed out', async () => {
    const user = await ctx.newUser();
    const early = await offer(user.token);
    const late = await offer(user.token);
    clock.advance(5 * 60_000 - 1);
    expect((await fetchPass('google', early.token, user.token)).statusCode).toBe(200);
    clock.advance(1);
    expectRefused(await fetchPass('google', late.token, user.token));
  });

  it("belongs to whoever asked for it: another user's token is refused and stays usable", async () => {
    const [owner, other] = [await ctx.newUser(), await ctx.newUser()];
    const { token } = await offer(owner.token);
    expectRefused(await fetchPass('apple', token, other.token));
    expectRefused(await fetchPass('google', 'A'.repeat(43), owner.token));
    expect((await fetchPass('google', token, owner.token)).statusCode).toBe(200);
  });

  it("gives an API key a pass of its team, and keeps keys' and users' tokens apart", async () => {
    const team = await ctx.newTeam();
    const key = await ctx.newApiKey(team);
    const keyToken = (await offer(key)).token;
    expectRefused(await fetchPass('google', keyToken, team.owner.token));
    const res = await fetchPass('google', keyToken, key);
    expect(res.statusCode, res.body).toBe(200);
    const [object] = (await saveLinkClaims(res.json().saveUrl)).payload.genericObjects;
    expect(object).toMatchObject({
      id: `${GOOGLE_ISSUER_ID}.team-${team.id}`,
      header: { defaultValue: { language: 'en', value: team.name } },
      barcode: { type: 'QR_CODE', value: `team-${team.id}` },
    });

    const userToken = (await offer(team.owner.token)).token;
    expectRefused(await fetchPass('apple', userToken, key));
    expect((await fetchPass('apple', userToken, team.owner.token)).statusCode).toBe(200);
  });

  it('refuses a bad request with 400 and leaves the token unused', async () => {
    const user = await ctx.newUser();
    const { token } = await offer(user.token);
    for (const url of [
      `/api/v1/wallet/identity/windows?token=${token}`,
      '/api/v1/wallet/identity/apple',
      '/api/v1/wallet/identity/apple?token=',
      `/api/v1/wallet/identity/apple?token=${'a'.repeat(129)}`,
      '/api/v1/wallet/identity/apple?token=bad%00token',
      '/api/v1/wallet/identity/apple?token=%E2%9C%93',
    ]) {
      const res = await ctx.request({ method: 'GET', url, token: user.token });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    expect((await fetchPass('apple', token, user.token)).statusCode).toBe(200);
  });

  it('answers exactly 401 without a valid bearer token, before looking at the wallet token', async () => {
    const user = await ctx.newUser();
    const { token } = await offer(user.token);
    for (const bearer of [undefined, 'garbage', `${user.token}x`]) {
      const res = await fetchPass('apple', token, bearer);
      expect(res.statusCode).toBe(401);
      expect(res.body).toBe('{"error":"Unauthorized"}');
    }
    expect((await fetchPass('google', token, user.token)).statusCode).toBe(200);
  });
});

describeSecurityMatrix(ctx, cases);
