import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery } from '../../shared/schemas.ts';
import {
  EXAMPLE_RESUMABLE,
  LibraryFileFields,
  StoredFileFields,
  UploadFileName,
  UploadFileSize,
  UploadMediaType,
  UploadTicketFields,
} from '../files/files.schemas.ts';
import { TEAM_EXAMPLE } from './teams.schemas.ts';

const API = 'https://api.example.com/api/v1/files';
const MEDIA_EXAMPLE = {
  id: 812,
  teamId: TEAM_EXAMPLE.id,
  fileName: 'night-drive-teaser.wav',
  fileSize: 10_584_044,
  mediaType: 'audio/wav',
  kind: 'audio',
  createdAt: TEAM_EXAMPLE.at,
} as const;

export const MediaParams = Type.Object({ id: Id, mediaId: Id });
export const MediaListQuery = Type.Object(PageQuery);

export const CreateMediaBody = Type.Object(
  {
    fileName: UploadFileName,
    fileSize: UploadFileSize,
    mediaType: UploadMediaType,
  },
  {
    title: 'TeamMediaCreate',
    examples: [{ fileName: 'night-drive-teaser.wav', fileSize: 10_584_044, mediaType: 'audio/wav' }],
  },
);

const mediaFields = { ...LibraryFileFields, teamId: Id };

/** A team media file; `peaks` carries the waveform itself only on the single-media answers. */
export const TeamMedia = Type.Object(
  { ...mediaFields, ...StoredFileFields },
  {
    title: 'TeamMedia',
    examples: [
      {
        ...MEDIA_EXAMPLE,
        status: 'ready',
        url: `${API}/download?token=EXAMPLE-signed-token-inline`,
        downloadUrl: `${API}/download?token=EXAMPLE-signed-token-attachment`,
        urlExpiresAt: '2026-03-14T10:30:00.000Z',
        audio: {
          durationSeconds: 60,
          sampleRate: 44_100,
          channels: 2,
          bitsPerSample: 24,
          bitrate: 2_116_800,
          codec: 'PCM',
          container: 'WAVE',
          lossless: true,
        },
        peaks: {
          status: 'ready',
          bucketCount: 3,
          durationSeconds: 60,
          min: [-0.42, -0.8, -0.35],
          max: [0.4, 0.82, 0.31],
        },
      },
    ],
  },
);
export const TeamMediaPage = Page(TeamMedia);

/** The new (pending) media with the URL to upload its bytes to. */
export const TeamMediaUpload = Type.Object(
  {
    ...mediaFields,
    ...UploadTicketFields('fileKey', 'The key of the upload (registration uses the media id)'),
  },
  {
    title: 'TeamMediaUpload',
    examples: [
      {
        ...MEDIA_EXAMPLE,
        status: 'pending',
        uploadUrl: `${API}/upload?token=EXAMPLE-signed-upload-token`,
        resumable: EXAMPLE_RESUMABLE,
        method: 'PUT',
        headers: { 'content-type': 'audio/wav' },
        fileKey: 'teams/7/audio/0193a5f2-9f4b-7e6d-8c43-6f5a7b8c9d0e.wav',
        expiresAt: '2026-03-14T10:30:00.000Z',
      },
    ],
  },
);
