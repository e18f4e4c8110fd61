/** How many leading bytes tell an image format. */
export const SIGNATURE_BYTES = 16;

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...bytes.subarray(from, to));
const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);

const SIGNATURES: Readonly<Record<string, (head: Uint8Array) => boolean>> = {
  'image/png': (head) => startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': (head) => startsWith(head, [0xff, 0xd8, 0xff]),
  'image/gif': (head) => ['GIF87a', 'GIF89a'].includes(ascii(head, 0, 6)),
  'image/webp': (head) => ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP',
  'image/avif': (head) =>
    ascii(head, 4, 8) === 'ftyp' && ['avif', 'avis', 'mif1', 'msf1'].includes(ascii(head, 8, 12)),
};

/**
 * Whether the first bytes of a file are those of the image type it was uploaded as. Images are shown in
 * browsers: a text or HTML file named cover.png must not be stored as one. Types without a known signature
 * pass.
 */
export function matchesImageSignature(contentType: string, head: Uint8Array): boolean {
  const check = SIGNATURES[contentType];
  return check ? check(head) : true;
}
