import { errors } from '../../shared/errors.ts';
import { guessContentType, mediaTypeOf } from '../../storage/content-type.ts';
import { FILE_KINDS, type FileKind } from '../../storage/limits.ts';

/** What a new upload is: its kind, and its content type when known (else told from the file name). */
export type UploadType = { kind: FileKind; contentType?: string };

const KIND_OF_TOP_LEVEL: Readonly<Record<string, FileKind>> = {
  audio: 'audio',
  image: 'image',
  video: 'video',
};

/** The kind a content type is stored as: audio, images and video by their top-level type, anything else a document. */
export function kindOf(contentType: string): FileKind {
  return KIND_OF_TOP_LEVEL[mediaTypeOf(contentType).split('/')[0]!] ?? 'document';
}

/** `image/png` -> image; `audio`, `image`, `document` name the kind and leave the type to the file name. */
export function resolveMediaType(mediaType: string, path = '/body/mediaType'): UploadType {
  const value = mediaType.trim().toLowerCase();
  if ((FILE_KINDS as readonly string[]).includes(value)) return { kind: value as FileKind };
  const contentType = mediaTypeOf(value);
  if (!/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(contentType)) {
    throw errors.validation([
      { path, message: `must be a media type such as image/png, or one of ${FILE_KINDS.join(', ')}` },
    ]);
  }
  return { kind: kindOf(contentType), contentType };
}

/** The type of an upload from its media type when given, else from its file name's extension. */
export function resolveUploadType(fileName: string, mediaType: string | undefined): UploadType {
  if (mediaType !== undefined) return resolveMediaType(mediaType);
  const guessed = guessContentType(fileName);
  if (!guessed) {
    throw errors.unsupportedFileType(
      `The type of "${fileName}" cannot be told from its name; send mediaType`,
    );
  }
  return { kind: kindOf(guessed), contentType: mediaTypeOf(guessed) };
}

/** The content type a cover upload names, if any: only images are covers. */
export function coverContentType(mediaType: string | undefined): string | undefined {
  if (mediaType === undefined) return undefined;
  const { kind, contentType } = resolveMediaType(mediaType);
  if (kind !== 'image')
    throw errors.unsupportedFileType(`A cover is an image (png, jpeg, webp, gif or avif), not ${mediaType}`);
  return contentType;
}
