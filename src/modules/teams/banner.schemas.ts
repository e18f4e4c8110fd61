import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../../shared/schemas.ts';
import { UploadTicketFields } from '../files/files.schemas.ts';

export const BannerUploadBody = Type.Object({
  fileName: Type.String({
    minLength: 1,
    maxLength: 255,
    pattern: '\\S',
    description: 'The image file name; its extension gives the type (png, jpg, webp, gif, avif)',
  }),
});

export const BannerUploadUrl = Type.Object(
  UploadTicketFields('fileKey', 'Send it to PUT /api/v1/teams/{id}/banner once the bytes are uploaded'),
);

export const SetBannerBody = Type.Object({
  fileKey: Type.String({ minLength: 1, maxLength: 1024, description: 'The fileKey of the upload URL' }),
});

export const Banner = Type.Object({
  teamId: Id,
  fileId: Id,
  fileName: Type.String(),
  contentType: Type.String(),
  size: Type.Integer({ minimum: 0 }),
  url: Type.String({ description: 'Signed URL to show the banner' }),
  downloadUrl: Type.String({ description: 'Signed URL to save the banner under its name' }),
  urlExpiresAt: Timestamp,
  updatedAt: Timestamp,
});
