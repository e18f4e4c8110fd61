import { lookup, extension as usualExtension } from 'mime-types';

/** `audio/WAV; charset=x` -> `audio/wav`: the media type alone, trimmed and lower case. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

// Where the MIME database's first choice is not the type browsers and our limits use.
const PREFERRED: Record<string, string> = {
  flac: 'audio/flac',
  aif: 'audio/aiff',
  aiff: 'audio/aiff',
  aifc: 'audio/aiff',
  opus: 'audio/opus',
  m4a: 'audio/mp4',
  webm: 'audio/webm',
  mov: 'video/quicktime',
  m4v: 'video/x-m4v',
  mkv: 'video/x-matroska',
};

/** The content type a file name's extension suggests (`Take 3.WAV` -> `audio/wav`), or undefined. */
export function guessContentType(fileName: string): string | undefined {
  const base = fileName.split(/[/\\]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  if (dot <= 0 || dot === base.length - 1) return undefined;
  const extension = base.slice(dot + 1).toLowerCase();
  return PREFERRED[extension] ?? (lookup(extension) || undefined);
}

// Where the MIME database's first extension is not the one people use (`mpga` for MP3).
const PREFERRED_EXTENSIONS: Record<string, string> = {
  'audio/mpeg': 'mp3',
  'audio/flac': 'flac',
  'audio/aiff': 'aiff',
  'audio/ogg': 'ogg',
  'audio/opus': 'opus',
  'audio/webm': 'webm',
};

/** The usual file extension of a content type (`image/png` -> `png`), or undefined. */
export function extensionFor(contentType: string): string | undefined {
  const type = mediaTypeOf(contentType);
  return PREFERRED_EXTENSIONS[type] ?? (usualExtension(type) || undefined);
}
