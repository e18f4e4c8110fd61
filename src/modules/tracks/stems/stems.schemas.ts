import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Timestamp, Uuid } from '../../../shared/schemas.ts';
import { UploadTicketFields } from '../../files/files.schemas.ts';
import { EXAMPLE_TIME, EXAMPLE_UPLOAD, EXAMPLE_USER_ID, exampleDownloadUrl } from '../tracks.schemas.ts';
import { AUDIO_FILE_EXAMPLE, audioFileFields } from '../versions/versions.schemas.ts';
import { STEM_DOWNLOADERS, StemDownloaderSchema } from './stem-rights.ts';

const STEM_KEY = 'pending/7/7d8e9f0a-1b2c-4d3e-8f4a-5b6c7d8e9f0a';
const STEM_FILE_EXAMPLE = {
  ...AUDIO_FILE_EXAMPLE,
  fileId: 760,
  fileName: 'night-drive-drums.wav',
  size: 38_912_000,
  url: exampleDownloadUrl('hdWRpby9uaWdodC1kcml2ZS1kcnVtcy53YXY'),
  downloadUrl: exampleDownloadUrl('hdWRpby9uaWdodC1kcml2ZS1kcnVtcy53YXYiLCJkIjoiYSJ9'),
};
const STEM_EXAMPLE = {
  id: 61,
  versionId: 502,
  name: 'Drums',
  instrument: 'drums',
  notes: null,
  position: 0,
  file: STEM_FILE_EXAMPLE,
  restricted: false,
  downloadableBy: [],
  downloadable: true,
  createdBy: EXAMPLE_USER_ID,
  createdAt: EXAMPLE_TIME,
  updatedAt: EXAMPLE_TIME,
};

export const StemParams = Type.Object({ id: Id, versionId: Id, stemId: Id });
export const StemListQuery = Type.Object(PageQuery);

const StemName = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const Instrument = Type.Union([Type.String({ maxLength: 100 }), Type.Null()], {
  description: 'E.g. drums, bass, lead vocal; null clears it',
});
const Notes = Type.Union([Type.String({ maxLength: 20_000 }), Type.Null()]);
const UploadKey = (description: string) => Type.String({ minLength: 1, maxLength: 512, description });

export const StemUploadBody = Type.Object(
  {
    fileName: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' }),
    fileSize: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'Exact size in bytes; the upload URL then accepts this size only',
      }),
    ),
    mediaType: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description:
          'The audio media type, e.g. `audio/wav`; told from the file name when left out (or `audio`)',
      }),
    ),
  },
  {
    title: 'StemUploadCreate',
    examples: [{ fileName: 'night-drive-drums.wav', fileSize: 38_912_000, mediaType: 'audio/wav' }],
  },
);

export const StemUploadUrl = Type.Object(
  {
    ...UploadTicketFields(
      'pendingKey',
      'The key of the upload: register it with POST .../stems as `stemKey`, or give it up with ' +
        'POST .../stems/cleanup',
    ),
    stemKey: Type.String({
      description: 'The same value as `pendingKey`, under the name POST .../stems takes',
    }),
  },
  {
    title: 'StemUpload',
    examples: [{ ...EXAMPLE_UPLOAD, pendingKey: STEM_KEY, stemKey: STEM_KEY }],
  },
);

export const CreateStemBody = Type.Object(
  {
    name: StemName,
    stemKey: UploadKey('The key of an upload URL of this version (POST .../stems/upload-url), bytes PUT'),
    instrument: Type.Optional(Instrument),
    notes: Type.Optional(Notes),
  },
  { title: 'StemCreate', examples: [{ name: 'Drums', stemKey: STEM_KEY, instrument: 'drums' }] },
);

export const StemPatchBody = Type.Object(
  {
    name: Type.Optional(StemName),
    instrument: Type.Optional(Instrument),
    notes: Type.Optional(Notes),
    stemKey: Type.Optional(
      UploadKey(
        'An uploaded key of this version (POST .../stems/upload-url) that replaces the stem’s file, e.g. ' +
          'after POST .../stems/{stemId}/cleanup; the previous file is deleted',
      ),
    ),
  },
  {
    title: 'StemUpdate',
    minProperties: 1,
    description: 'Only the fields given change; null clears instrument or notes',
    examples: [{ name: 'Drums (tight)', notes: 'Gated room mics' }, { stemKey: STEM_KEY }],
  },
);

export const StemCleanupBody = Type.Object(
  { pendingKey: UploadKey('The `pendingKey` of an upload URL of this version that was not registered') },
  { title: 'StemUploadDiscard', examples: [{ pendingKey: STEM_KEY }] },
);

const WITHHELD = 'null when the caller may not download the stem (`downloadable: false`)';

export const StemFile = Type.Object(
  {
    ...audioFileFields,
    url: Type.Union([Type.String(), Type.Null()], {
      description: `Signed URL to stream the audio (inline); ${WITHHELD}`,
    }),
    downloadUrl: Type.Union([Type.String(), Type.Null()], {
      description: `Signed URL to download the audio under its name; ${WITHHELD}`,
    }),
    urlExpiresAt: Type.Union([Timestamp, Type.Null()], { description: `When the URLs expire; ${WITHHELD}` }),
  },
  {
    title: 'StemFile',
    description:
      'The stem’s audio; `peaks` carries the waveform itself only on single-stem answers. Name, facts and ' +
      'peaks are shown to everyone who sees the stem, the URLs only to those who may download it.',
    examples: [STEM_FILE_EXAMPLE, { ...STEM_FILE_EXAMPLE, url: null, downloadUrl: null, urlExpiresAt: null }],
  },
);

const Downloaders = Type.Array(StemDownloaderSchema, {
  uniqueItems: true,
  maxItems: STEM_DOWNLOADERS.length,
  description:
    'Who besides the owning team’s owners may download the stem while it is restricted, each once: ' +
    '`admin` and `member` (roles of the owning team), `api_key` (its API keys), `shared_team` (members and ' +
    'keys of teams the track is shared with, whatever their role there), `review_link` (review links that ' +
    'allow downloads)',
});

export const StemRightsBody = Type.Object(
  {
    restricted: Type.Boolean({
      description: 'true: only the owning team’s owners and `downloadableBy` may fetch the stem’s audio',
    }),
    downloadableBy: Downloaders,
  },
  {
    title: 'StemRightsUpdate',
    examples: [
      { restricted: true, downloadableBy: ['admin', 'api_key'] },
      { restricted: false, downloadableBy: [] },
    ],
  },
);

export const Stem = Type.Object(
  {
    id: Id,
    versionId: Id,
    name: Type.String(),
    instrument: Type.Union([Type.String(), Type.Null()]),
    notes: Type.Union([Type.String(), Type.Null()]),
    position: Type.Integer({ description: 'Order among the version’s stems (new stems go last)' }),
    file: Type.Union([StemFile, Type.Null()], {
      description: 'null once the file was removed with POST .../stems/{stemId}/cleanup',
    }),
    restricted: Type.Boolean({
      description: 'Whether only the owning team’s owners and `downloadableBy` may fetch the stem’s audio',
    }),
    downloadableBy: Downloaders,
    downloadable: Type.Boolean({
      description:
        'Whether the caller may fetch the stem’s audio; when false, `file.url` and `file.downloadUrl` are null',
    }),
    createdBy: Type.Union([Uuid, Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Stem', examples: [STEM_EXAMPLE] },
);

export const StemPage = Page(Stem);
