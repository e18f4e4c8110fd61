import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../../shared/schemas.ts';
import {
  EXAMPLE_RESUMABLE,
  ImageUploadBody,
  RegisterUploadBody,
  singleImageFields,
  UploadTicketFields,
} from '../files/files.schemas.ts';

const API = 'https://api.example.com/api/v1/files';
const BANNER_KEY = 'teams/7/image/0193a5f2-a05c-7f7e-9d54-7a6b8c9d0e1f.png';

// Copies of the shared body shapes, named for this use in the API document.
export const BannerUploadBody = Type.Object(
  { ...ImageUploadBody.properties },
  { title: 'TeamBannerUpload', examples: [{ fileName: 'night-drives-banner.png' }] },
);

export const BannerUploadUrl = Type.Object(
  UploadTicketFields('fileKey', 'Send it to PUT /api/v1/teams/{id}/banner once the bytes are uploaded'),
  {
    title: 'TeamBannerUploadUrl',
    examples: [
      {
        uploadUrl: `${API}/upload?token=EXAMPLE-signed-upload-token`,
        resumable: EXAMPLE_RESUMABLE,
        method: 'PUT',
        headers: { 'content-type': 'image/png' },
        fileKey: BANNER_KEY,
        expiresAt: '2026-03-14T10:30:00.000Z',
      },
    ],
  },
);

export const SetBannerBody = Type.Object(
  { ...RegisterUploadBody.properties },
  { title: 'TeamBannerSet', examples: [{ fileKey: BANNER_KEY }] },
);

export const Banner = Type.Object(
  {
    teamId: Id,
    ...singleImageFields('banner'),
    updatedAt: Timestamp,
  },
  {
    title: 'TeamBanner',
    examples: [
      {
        teamId: 7,
        fileId: 815,
        fileName: 'night-drives-banner.png',
        contentType: 'image/png',
        size: 482_113,
        url: `${API}/download?token=EXAMPLE-signed-token-inline`,
        downloadUrl: `${API}/download?token=EXAMPLE-signed-token-attachment`,
        urlExpiresAt: '2026-03-14T10:30:00.000Z',
        updatedAt: '2026-03-14T09:35:00.000Z',
      },
    ],
  },
);
