import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../../shared/schemas.ts';
import {
  ImageUploadBody,
  RegisterUploadBody,
  singleImageFields,
  UploadTicketFields,
} from '../files/files.schemas.ts';

export const CoverUploadBody = ImageUploadBody;

export const CoverUploadUrl = Type.Object(
  UploadTicketFields('fileKey', 'Send it to PUT /api/v1/albums/{id}/cover once the bytes are uploaded'),
);

export const SetCoverBody = RegisterUploadBody;

export const AlbumCover = Type.Object({
  albumId: Id,
  ...singleImageFields('cover'),
  createdAt: Timestamp,
});
