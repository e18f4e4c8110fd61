import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals short secrets for storage with AES-256-GCM under a key derived (HKDF-SHA256) from a service secret
 * and a purpose, so a database dump alone reveals none of them. Sealed text: `v1.<base64url(iv|ciphertext|tag)>`.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(serviceSecret: string, purpose: string) {
    this.key = Buffer.from(hkdfSync('sha256', serviceSecret, Buffer.alloc(0), purpose, 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${FORMAT}.${sealed.toString('base64url')}`;
  }

  /** The plain secret; throws when the text was not sealed with this key (tampered, or the service secret changed). */
  open(sealed: string): string {
    const [format, body] = sealed.split('.');
    const bytes = Buffer.from(body ?? '', 'base64url');
    if (format !== FORMAT || bytes.length < IV_BYTES + TAG_BYTES) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const plain = Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]);
    return plain.toString('utf8');
  }
}
