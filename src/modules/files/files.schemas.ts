import { type TSchema, Type } from '@sinclair/typebox';
import { FILE_KIND_VALUES, PEAKS_STATUSES } from '../../db/schema/index.ts';
import { errorResponse, Id, Timestamp } from '../../shared/schemas.ts';

export const SignedTokenQuery = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 8192, description: 'The signature the service issued' }),
});

/** The raw bytes of an upload, in the content type the upload URL was issued for. */
export const UploadBody = Type.Unsafe<unknown>({
  content: {
    'application/octet-stream': {
      schema: {
        format: 'binary',
        description:
          'The file bytes, sent with the headers the upload URL came with. Content-Type is the type the URL ' +
          'names (bound by the signature) or application/octet-stream, which the URL takes as its own type; ' +
          'any other type is 415. With S3 storage the URL points at the bucket, which takes only the headers given',
      },
    },
  },
});

export const UploadResult = Type.Object(
  {
    key: Type.String({ description: 'The key of the upload, as the upload URL answered it' }),
    size: Type.Integer({ minimum: 0, description: 'Bytes stored' }),
    etag: Type.String({ description: 'Entity tag of the stored bytes (also sent as the ETag header)' }),
  },
  {
    title: 'FileUploadResult',
    description: 'The bytes were stored; register the upload with the endpoint that issued the URL',
    examples: [
      {
        key: 'pending/7/3f2c9a1e-5b7d-4c8e-9a0b-1c2d3e4f5a6b',
        size: 41_203_712,
        etag: '"9b2cf535f27731c974343645a3985328"',
      },
    ],
  },
);

/** A binary body answer: the file, or the requested byte range of it. */
export const BinaryResponse = (description: string) => ({
  description,
  content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
});

export const FileKindSchema = Type.Union(FILE_KIND_VALUES.map((k) => Type.Literal(k)));

/** The facts of a 3 min 34 s 24-bit stereo WAVE bounce, as the examples of the document show them. */
export const AUDIO_FACTS_EXAMPLE = {
  durationSeconds: 214.6,
  sampleRate: 48_000,
  channels: 2,
  bitsPerSample: 24,
  bitrate: 2_304_000,
  codec: 'PCM',
  container: 'WAVE',
  lossless: true,
};

/** A waveform whose peaks are ready (four buckets, for brevity). */
export const PEAKS_EXAMPLE = {
  status: 'ready',
  bucketCount: 4,
  durationSeconds: 214.6,
  min: [-0.42, -0.88, -0.91, -0.37],
  max: [0.45, 0.9, 0.93, 0.35],
};

export const AudioFacts = Type.Object(
  {
    durationSeconds: Type.Number(),
    sampleRate: Type.Integer(),
    channels: Type.Integer(),
    bitsPerSample: Type.Union([Type.Integer(), Type.Null()]),
    bitrate: Type.Union([Type.Integer(), Type.Null()], { description: 'Bits per second' }),
    codec: Type.String({ description: 'E.g. PCM, FLAC, MPEG 1 Layer 3, AAC' }),
    container: Type.String({ description: 'E.g. WAVE, FLAC, MPEG, M4A/isom, Ogg' }),
    lossless: Type.Boolean(),
  },
  {
    title: 'AudioFacts',
    description: 'Read from the file itself when it was registered',
    examples: [AUDIO_FACTS_EXAMPLE],
  },
);

const PeaksStatusSchema = Type.Union(
  PEAKS_STATUSES.map((s) => Type.Literal(s)),
  {
    description: 'none: not audio; pending: being computed; ready; failed: see reason',
  },
);

/** The waveform of a file: its state, and the peaks themselves where the answer includes them. */
export const Peaks = Type.Object(
  {
    status: PeaksStatusSchema,
    reason: Type.Optional(Type.String({ description: 'Why computing the peaks failed (status failed)' })),
    message: Type.Optional(Type.String()),
    bucketCount: Type.Optional(Type.Integer({ description: 'Number of buckets in min and max' })),
    durationSeconds: Type.Optional(Type.Number({ description: 'Seconds of audio the buckets cover' })),
    min: Type.Optional(
      Type.Array(Type.Number(), { description: 'Per bucket, the lowest sample of any channel (-1..1)' }),
    ),
    max: Type.Optional(
      Type.Array(Type.Number(), { description: 'Per bucket, the highest sample of any channel (-1..1)' }),
    ),
  },
  {
    title: 'WaveformPeaks',
    description:
      'The waveform state of a file; `bucketCount`, `durationSeconds`, `min` and `max` only where the answer ' +
      'carries the peaks themselves and they are ready',
    examples: [PEAKS_EXAMPLE, { status: 'pending' }],
  },
);

/** An example of the resumable way in that every upload answer carries. */
export const EXAMPLE_RESUMABLE = {
  url: 'https://music.example.com/api/v1/uploads/resumable',
  token: 'eyJtIjoiUFVUIiwiayI6InBlbmRpbmcvNy8zZjJjIn0.Xq9cJ2m0tYk1bq3v5Yw8Hc4mRz7nLpQe6sUaFd0gKhI',
};

/** The resumable (tus) way to send a ticket's bytes, for large files and unsteady connections. */
export const ResumableUploadTicket = Type.Object(
  {
    url: Type.String({ description: 'The tus endpoint: create the upload here (POST, tus 1.0.0)' }),
    token: Type.String({
      description:
        'Send as `token` in `Upload-Metadata` (with `filetype` and `filename`) when creating the upload; it ' +
        'allows the same key, type and size as `uploadUrl` and expires with it',
    }),
  },
  {
    title: 'ResumableUploadTicket',
    description:
      'The same upload sent in resumable pieces through the tus protocol (creation, HEAD, PATCH, termination). ' +
      'Once the last byte arrived, register the key exactly as after a PUT to `uploadUrl`.',
    examples: [EXAMPLE_RESUMABLE],
  },
);

/** The upload-URL fields every upload endpoint answers, with the key under the name its endpoint uses. */
export function UploadTicketFields<K extends string>(
  keyField: K,
  keyDescription: string,
): UploadTicketFieldSchemas<K> {
  return {
    resumable: ResumableUploadTicket,
    uploadUrl: Type.String({ description: 'PUT the file bytes here' }),
    method: Type.Literal('PUT'),
    headers: Type.Record(Type.String(), Type.String(), {
      description: 'Headers to send with the PUT, exactly as given',
    }),
    [keyField]: Type.String({ description: keyDescription }),
    expiresAt: Timestamp,
  } as UploadTicketFieldSchemas<K>;
}

/** The schemas of a ticket's fields. */
type UploadTicketFieldSchemas<K extends string> = Record<
  'resumable' | 'uploadUrl' | 'method' | 'headers' | 'expiresAt' | K,
  TSchema
>;

/** The request fields of a new upload to a file library (team media, track covers, track media). */
export const UploadFileName = Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' });
/**
 * The optional size of an upload's audio, announced when the upload URL is asked for (extension): the
 * URL then takes exactly that many bytes, and that much of the quota is reserved at once; without it the
 * quota is taken as the bytes arrive.
 */
const AudioFileSize = Type.Optional(
  Type.Integer({
    minimum: 0,
    description:
      "Exact size of the audio in bytes (extension). The upload URL then accepts this size only, and this much of the team's quota is held for it from now until it is registered; without it nothing is held until bytes arrive, and a PUT that passes the team's free bytes is refused (413 quota_exceeded).",
  }),
);

/** The body fields of a request that asks for an audio upload URL. */
export const audioUploadFields = {
  audioFileName: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' }),
  audioFileSize: AudioFileSize,
};

/** The names the specification gives the audio upload fields, still accepted (see `withOlderNames`). */
export const audioUploadOlderNames = {
  audio_file_name: 'audioFileName',
  audio_file_size: 'audioFileSize',
} as const;

export const UploadFileSize = Type.Integer({
  minimum: 0,
  description: 'Exact size in bytes; the upload URL accepts this size only',
});
export const UploadMediaType = Type.String({
  minLength: 1,
  maxLength: 255,
  description:
    'The media (MIME) type, e.g. `audio/wav`, `image/png`, `application/pdf`; or just the kind ' +
    '(`audio`, `image`, `document`), the type then being told from the file name',
});

/** Body asking for the upload URL of a cover in a library of covers (track covers, tour covers). */
export const CreateCoverBody = Type.Object(
  {
    fileName: UploadFileName,
    fileSize: Type.Optional(UploadFileSize),
    mediaType: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description:
          'An image type (`image/png`, `image/jpeg`, `image/webp`, `image/gif`, `image/avif`) or `image`; ' +
          'told from the file name when left out',
      }),
    ),
  },
  {
    title: 'CoverUploadCreate',
    examples: [{ fileName: 'night-drives-cover.png', fileSize: 482_113, mediaType: 'image/png' }],
  },
);

/** Body of an endpoint that registers an upload by the key its upload URL answered. */
export const RegisterUploadBody = Type.Object({
  fileKey: Type.String({ minLength: 1, maxLength: 1024, description: 'The fileKey of the upload URL' }),
});

/** Body asking for the upload URL of a single image (a team banner, an album cover). */
export const ImageUploadBody = Type.Object({
  fileName: Type.String({
    minLength: 1,
    maxLength: 255,
    pattern: '\\S',
    description: 'The image file name; its extension gives the type (png, jpg, webp, gif, avif)',
  }),
});

/** The file and signed links of a single image (a team banner, an album cover), named `what` in the docs. */
export const singleImageFields = (what: string) => ({
  fileId: Id,
  fileName: Type.String(),
  contentType: Type.String(),
  size: Type.Integer({ minimum: 0 }),
  url: Type.String({ description: `Signed URL to show the ${what}` }),
  downloadUrl: Type.String({ description: `Signed URL to save the ${what} under its name` }),
  urlExpiresAt: Timestamp,
});

/** The fields of an item of a file library; a registered one adds StoredFileFields. */
export const LibraryFileFields = {
  id: Id,
  status: Type.Union([Type.Literal('pending'), Type.Literal('ready')], {
    description: 'pending: waiting for the upload to be registered (POST .../added); ready: stored',
  }),
  fileName: Type.String(),
  fileSize: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  mediaType: Type.String({ description: 'The media (MIME) type' }),
  kind: FileKindSchema,
  createdAt: Timestamp,
};

/** What a registered library file adds: signed links, and for audio its facts and waveform. */
export const StoredFileFields = {
  url: Type.Optional(Type.String({ description: 'Signed URL to show or play the file in place' })),
  downloadUrl: Type.Optional(Type.String({ description: 'Signed URL to save the file under its name' })),
  urlExpiresAt: Type.Optional(Timestamp),
  audio: Type.Optional(Type.Union([AudioFacts, Type.Null()])),
  peaks: Type.Optional(Peaks),
};

/** The refusals of an upload-URL or registration endpoint, for its OpenAPI responses. */
export const fileRefusals = {
  400: errorResponse(
    'validation_failed, unsupported_file_type (also bytes that are not the announced image type) or ' +
      'size_mismatch; refused bytes end the upload: ask for a new upload URL',
  ),
  409: errorResponse(
    'too_many_open_uploads: asking for an upload URL with a fileSize while MAX_OPEN_UPLOADS_PER_TEAM open ' +
      '(issued, not yet registered, discarded or expired) uploads of the team hold quota (a fileSize, or bytes ' +
      'received); confirming: upload_missing (nothing PUT yet), upload_registering (another confirmation is ' +
      'storing it; retry) or upload_closed',
  ),
  413: errorResponse(
    'payload_too_large (over the limit of its kind) or quota_exceeded. An open upload holds its fileSize of ' +
      'the quota (without one, the bytes it received) until it is registered, discarded or expires: an upload ' +
      'URL with a fileSize is refused when used + held bytes + that size would pass the quota; confirming ' +
      'refuses a file that does not fit beside them, and that upload ends',
  ),
};
