import type { ITokenizer } from 'strtok3';

/** The formats peaks.ts can decode. */
export type DecodableFormat = 'wav' | 'flac' | 'mp3';

const ascii = (bytes: Uint8Array, start: number, end: number) =>
  String.fromCharCode(...bytes.subarray(start, end));

/** A plausible MPEG audio (layer I-III) frame header: sync, and no reserved version, layer, bitrate or rate. */
function isMpegFrameHeader(bytes: Uint8Array): boolean {
  const [b0 = 0, b1 = 0, b2 = 0] = bytes;
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return false;
  const version = (b1 >> 3) & 0b11;
  const layer = (b1 >> 1) & 0b11;
  const bitrateIndex = b2 >> 4;
  const sampleRateIndex = (b2 >> 2) & 0b11;
  return (
    version !== 0b01 && layer !== 0b00 && bitrateIndex !== 0 && bitrateIndex !== 0xf && sampleRateIndex !== 3
  );
}

/** Size of an ID3v2 tag from its 10-byte header (syncsafe length, plus the footer when flagged). */
function id3v2Length(header: Uint8Array): number {
  const size =
    ((header[6] ?? 0) << 21) | ((header[7] ?? 0) << 14) | ((header[8] ?? 0) << 7) | (header[9] ?? 0);
  const hasFooter = ((header[5] ?? 0) & 0x10) !== 0;
  return 10 + size + (hasFooter ? 10 : 0);
}

/**
 * Looks at the first bytes (skipping ID3v2 tags, which are consumed) and names the decodable format, or
 * undefined. Leaves the tokenizer at the start of the audio stream.
 */
export async function detectDecodableFormat(tokenizer: ITokenizer): Promise<DecodableFormat | undefined> {
  const head = new Uint8Array(12);
  for (let tags = 0; tags < 8; tags++) {
    const read = await tokenizer.peekBuffer(head, { mayBeLess: true });
    if (read >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WAVE') return 'wav';
    if (read >= 4 && ascii(head, 0, 4) === 'fLaC') return 'flac';
    if (read >= 10 && ascii(head, 0, 3) === 'ID3') {
      await tokenizer.ignore(id3v2Length(head));
      continue;
    }
    if (read >= 4 && isMpegFrameHeader(head)) return 'mp3';
    return undefined;
  }
  return undefined;
}
