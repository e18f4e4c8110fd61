import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.ts';

describe('sealed secrets', () => {
  const box = new SecretBox('service-secret-of-at-least-32-characters', 'webhook-endpoint-secrets');

  it('opens what it sealed; the same secret seals differently every time and never shows in the text', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const [a, b] = [box.seal(secret), box.seal(secret)];
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(a).not.toContain('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    expect(box.open(a)).toBe(secret);
    expect(box.open(b)).toBe(secret);
  });

  it('refuses text changed in any byte, and text sealed under another service secret or purpose', () => {
    const sealed = box.seal('whsec_abc');
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    for (let i = 0; i < bytes.length; i++) {
      const changed = Buffer.from(bytes);
      changed[i]! ^= 1;
      expect(() => box.open(`v1.${changed.toString('base64url')}`), `byte ${i}`).toThrow();
    }
    expect(() =>
      new SecretBox('another-service-secret-of-32-characters', 'webhook-endpoint-secrets').open(sealed),
    ).toThrow();
    expect(() =>
      new SecretBox('service-secret-of-at-least-32-characters', 'other-purpose').open(sealed),
    ).toThrow();
    expect(() => box.open('whsec_abc')).toThrow('not a sealed secret');
  });
});
