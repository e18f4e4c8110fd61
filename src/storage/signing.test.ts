import { describe, expect, it } from 'vitest';
import { type BlobTokenClaims, signBlobToken, verifyBlobToken } from './signing.ts';

const secret = 'a-test-secret-that-is-long-enough-0123456789';
const now = () => 1_700_000_000_000;
const nowSeconds = 1_700_000_000;

const putClaims: BlobTokenClaims = {
  method: 'PUT',
  key: 'teams/12/media/pending/abc.wav',
  expiresAt: nowSeconds + 600,
  maxBytes: 1_048_576,
  contentType: 'audio/wav',
};

const getClaims: BlobTokenClaims = {
  method: 'GET',
  key: 'teams/12/media/abc.wav',
  expiresAt: nowSeconds + 60,
  downloadName: 'Take 3 – “final”.wav',
};

function flip(text: string, index: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const current = text[index] as string;
  const replacement = alphabet[(alphabet.indexOf(current) + 1) % alphabet.length] as string;
  return text.slice(0, index) + replacement + text.slice(index + 1);
}

describe('blob tokens', () => {
  it('round-trips PUT claims', () => {
    const token = signBlobToken(putClaims, secret);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(verifyBlobToken(token, { secret, method: 'PUT', now })).toEqual({ ok: true, claims: putClaims });
  });

  it('round-trips GET claims with and without optional fields', () => {
    const token = signBlobToken(getClaims, secret);
    expect(verifyBlobToken(token, { secret, method: 'GET', now })).toEqual({ ok: true, claims: getClaims });
    const inline: BlobTokenClaims = {
      ...getClaims,
      disposition: 'inline',
      contentType: 'audio/wav',
      mark: 'version_play:12.k3',
    };
    expect(verifyBlobToken(signBlobToken(inline, secret), { secret, method: 'GET', now })).toEqual({
      ok: true,
      claims: inline,
    });
    const bare: BlobTokenClaims = { method: 'GET', key: 'a/b.png', expiresAt: nowSeconds + 1 };
    expect(verifyBlobToken(signBlobToken(bare, secret), { secret, method: 'GET', now })).toEqual({
      ok: true,
      claims: bare,
    });
  });

  it('fails on every single-character change anywhere in the token', () => {
    const token = signBlobToken(putClaims, secret);
    for (let index = 0; index < token.length; index++) {
      if (token[index] === '.') continue;
      const result = verifyBlobToken(flip(token, index), { secret, method: 'PUT', now });
      expect(result.ok, `changed character ${index}`).toBe(false);
    }
  });

  it('fails with bad_signature when the payload is re-encoded with other claims', () => {
    const token = signBlobToken(putClaims, secret);
    const [, signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ m: 'PUT', k: putClaims.key, e: nowSeconds + 600, s: 10 ** 12, t: 'audio/wav' }),
    ).toString('base64url');
    expect(verifyBlobToken(`${forged}.${signature}`, { secret, method: 'PUT', now })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('fails with bad_signature under another secret', () => {
    const token = signBlobToken(putClaims, 'another-secret-another-secret-another');
    expect(verifyBlobToken(token, { secret, method: 'PUT', now })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('fails with bad_signature when the signature is cut, extended or swapped', () => {
    const token = signBlobToken(putClaims, secret);
    const other = signBlobToken(getClaims, secret);
    const [payload, signature = ''] = token.split('.');
    const [, otherSignature] = other.split('.');
    expect(verifyBlobToken(`${payload}.${otherSignature}`, { secret, method: 'PUT', now }).ok).toBe(false);
    expect(verifyBlobToken(`${payload}.${signature.slice(0, -1)}`, { secret, method: 'PUT', now })).toEqual({
      ok: false,
      reason: 'malformed',
    });
    expect(verifyBlobToken(`${token}A`, { secret, method: 'PUT', now })).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });

  it('reports malformed tokens', () => {
    for (const token of ['', 'abc', 'a.b.c', '.', `x.${'A'.repeat(43)}.`, 'has space.sig', '%%%.%%%']) {
      expect(verifyBlobToken(token, { secret, method: 'GET', now })).toEqual({
        ok: false,
        reason: 'malformed',
      });
    }
  });

  it('reports malformed claims even when correctly signed', async () => {
    const { createHmac } = await import('node:crypto');
    const payload = Buffer.from(JSON.stringify({ m: 'DELETE', k: 'a', e: nowSeconds + 10 })).toString(
      'base64url',
    );
    const signature = createHmac('sha256', secret).update(`tmw.blob-token.v1.${payload}`).digest('base64url');
    expect(verifyBlobToken(`${payload}.${signature}`, { secret, method: 'GET', now })).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });

  it('reports wrong_method when a GET token is used for a PUT and the other way round', () => {
    expect(verifyBlobToken(signBlobToken(getClaims, secret), { secret, method: 'PUT', now })).toEqual({
      ok: false,
      reason: 'wrong_method',
    });
    expect(verifyBlobToken(signBlobToken(putClaims, secret), { secret, method: 'GET', now })).toEqual({
      ok: false,
      reason: 'wrong_method',
    });
  });

  it('expires at expiresAt, by the injected clock', () => {
    const token = signBlobToken(getClaims, secret);
    const at = (ms: number) => () => ms;
    const expiry = getClaims.expiresAt * 1000;
    expect(verifyBlobToken(token, { secret, method: 'GET', now: at(expiry - 1) }).ok).toBe(true);
    expect(verifyBlobToken(token, { secret, method: 'GET', now: at(expiry) })).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(verifyBlobToken(token, { secret, method: 'GET', now: at(expiry + 86_400_000) })).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('refuses an empty secret', () => {
    expect(() => signBlobToken(getClaims, '')).toThrow(TypeError);
    expect(() => verifyBlobToken('a.b', { secret: '', method: 'GET' })).toThrow(TypeError);
  });
});
