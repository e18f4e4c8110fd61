import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../../shared/schemas.ts';
import {
  ImageUploadBody,
  RegisterUploadBody,
  singleImageFields,
  UploadTicketFields,
} from '../files/files.schemas.ts';

export const BannerUploadBody = ImageUploadBody;

export const BannerUploadUrl = Type.Object(
  UploadTicketFields('fileKey', 'Send it to PUT /api/v1/teams/{id}/banner once the bytes are uploaded'),
);

export const SetBannerBody = RegisterUploadBody;

export const Banner = Type.Object({
  teamId: Id,
  ...singleImageFields('banner'),
  updatedAt: Timestamp,
});
