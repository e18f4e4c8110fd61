import { crc32, deflateSync } from 'node:zlib';
import { encodeMp3, encodeWav, sine } from '../../src/media/test-audio.ts';

/**
 * Real files of each kind at exactly `size` bytes, built deterministically in memory: what a client at a
 * kind's size limit sends.
 */

const RATE = 44_100;
const WAV_HEADER_BYTES = 44;

/** A 16-bit stereo WAV of `size` bytes (a multiple of 4): a sine the length the size allows. */
export function wavOfSize(size: number): Buffer {
  const frames = (size - WAV_HEADER_BYTES) / 4;
  if (!Number.isInteger(frames)) throw new Error(`a 16-bit stereo WAV cannot be ${size} bytes`);
  return encodeWav(
    sine({ sampleRate: RATE, seconds: frames / RATE, amplitude: 0.5, channels: 2 }),
    RATE,
    'pcm16',
  );
}

/** An ID3v2.4 tag of `size` bytes holding only padding, as taggers leave room for later edits. */
function id3Padding(size: number): Buffer {
  const tag = Buffer.alloc(size);
  tag.write('ID3', 0, 'latin1');
  tag[3] = 4;
  const body = size - 10;
  for (let i = 0; i < 4; i++) tag[6 + i] = (body >> (7 * (3 - i))) & 0x7f;
  return tag;
}

/**
 * A 320 kbit/s stereo MP3 of `size` bytes: two seconds encoded once and repeated (each copy a whole stream,
 * so decoders read straight through), after an ID3v2 tag whose padding makes up the exact size.
 */
export function mp3OfSize(size: number): Buffer {
  const piece = encodeMp3(sine({ sampleRate: RATE, seconds: 2, amplitude: 0.5, channels: 2 }), RATE, 320);
  const copies = Math.floor((size - 10) / piece.length);
  return Buffer.concat([id3Padding(size - copies * piece.length), ...Array(copies).fill(piece)]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return chunk;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_WIDTH = 512;

/**
 * An RGB PNG of `size` bytes: a 512-pixel-wide gradient stored uncompressed (so its pixels fill the
 * size), and a text chunk that makes up the exact size.
 */
export function pngOfSize(size: number): Buffer {
  const row = 1 + PNG_WIDTH * 3;
  // Room for the other chunks and the uncompressed blocks' framing (5 bytes per 64 KiB).
  const height = Math.floor((size - 4_096) / (row * 1.001));
  const pixels = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < PNG_WIDTH * 3; x++) pixels[y * row + 1 + x] = (x + y * 7) & 0xff;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(PNG_WIDTH, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const image = [pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(pixels, { level: 0 }))];
  const end = pngChunk('IEND', Buffer.alloc(0));
  const fixed = PNG_SIGNATURE.length + image.reduce((n, c) => n + c.length, 0) + end.length;
  const keyword = Buffer.from('Comment\0', 'latin1');
  const text = Buffer.concat([keyword, Buffer.alloc(size - fixed - 12 - keyword.length, 0x20)]);
  return Buffer.concat([PNG_SIGNATURE, ...image, pngChunk('tEXt', text), end]);
}

/** A one-page PDF of `size` bytes whose page content stream is padded with comment lines. */
export function pdfOfSize(size: number): Buffer {
  const build = (padding: number) => {
    const content = `BT /F1 12 Tf 72 720 Td (Cost) Tj ET\n${'%'.repeat(Math.max(0, padding))}\n`;
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
      `<< /Length ${content.length} >>\nstream\n${content}endstream`,
    ];
    let body = '%PDF-1.4\n';
    const offsets: number[] = [];
    objects.forEach((object, i) => {
      offsets.push(body.length);
      body += `${i + 1} 0 obj\n${object}\nendobj\n`;
    });
    const xref = body.length;
    body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
    for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
    body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
    return body;
  };
  let padding = 0;
  // The padding's length is written into the file too: a few rounds settle its digits.
  for (let round = 0; round < 4; round++) padding += size - build(padding).length;
  const pdf = Buffer.from(build(padding), 'latin1');
  if (pdf.length !== size) throw new Error(`a PDF of ${size} bytes came out at ${pdf.length}`);
  return pdf;
}

/** An MP4 (ISO base media) file of `size` bytes: its file-type box and a media-data box filling the rest. */
export function mp4OfSize(size: number): Buffer {
  const file = Buffer.alloc(size);
  file.writeUInt32BE(24, 0);
  file.write('ftypisom', 4, 'latin1');
  file.writeUInt32BE(0x200, 12);
  file.write('isommp41', 16, 'latin1');
  file.writeUInt32BE(size - 24, 24);
  file.write('mdat', 28, 'latin1');
  for (let i = 32; i < size; i++) file[i] = (i * 31) & 0xff;
  return file;
}
