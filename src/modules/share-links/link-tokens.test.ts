import { describe, expect, it } from 'vitest';
import { ShareLinkTokens } from './link-tokens.ts';

describe('ShareLinkTokens', () => {
  const tokens = new ShareLinkTokens('a signing secret');

  it('finds the public id a token was made from', () => {
    const publicId = tokens.newPublicId();
    expect(publicId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(tokens.publicIdOf(tokens.tokenOf(publicId))).toBe(publicId);
  });

  it('refuses a token with another MAC, another secret or another shape', () => {
    const publicId = tokens.newPublicId();
    const token = tokens.tokenOf(publicId);
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    expect(tokens.publicIdOf(token.slice(0, -1) + last)).toBeUndefined();
    expect(new ShareLinkTokens('another secret').publicIdOf(token)).toBeUndefined();
    expect(tokens.publicIdOf(publicId)).toBeUndefined();
    expect(tokens.publicIdOf(`${token}A`)).toBeUndefined();
    expect(tokens.publicIdOf(`${token.slice(0, -1)}/`)).toBeUndefined();
  });

  it('makes a different public id every time', () => {
    const ids = new Set(Array.from({ length: 100 }, () => tokens.newPublicId()));
    expect(ids.size).toBe(100);
  });
});
