import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Uuid } from '../../../shared/schemas.ts';
import {
  LibraryFileFields,
  StoredFileFields,
  UploadFileName,
  UploadFileSize,
  UploadMediaType,
  UploadTicketFields,
} from '../../files/files.schemas.ts';
import { CampRefParams } from './camps.schemas.ts';

export const CampFileParams = Type.Object({ ...CampRefParams.properties, fileId: Id });
export const CampFilesQuery = Type.Object(PageQuery);

export const CreateCampFileBody = Type.Object(
  {
    teamId: Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      description: "A team of the caller's: the file is stored on it and counts towards its plan's quota",
    }),
    fileName: UploadFileName,
    fileSize: UploadFileSize,
    mediaType: UploadMediaType,
  },
  {
    title: 'CampFileCreate',
    examples: [{ teamId: 7, fileName: 'camp-schedule.pdf', fileSize: 184320, mediaType: 'application/pdf' }],
  },
);

const FILE_EXAMPLE = {
  id: 640,
  status: 'ready',
  fileName: 'camp-schedule.pdf',
  fileSize: 184320,
  mediaType: 'application/pdf',
  kind: 'document',
  createdAt: '2026-03-09T12:00:00.000Z',
  campId: 5,
  teamId: 7,
  uploadedBy: '0193a5f2-6c1e-7b3a-9f10-3c2d4e5f6a7b',
} as const;

const campFileFields = {
  ...LibraryFileFields,
  campId: Id,
  teamId: Id,
  uploadedBy: Type.Union([Uuid, Type.Null()]),
};

export const CampFile = Type.Object(
  { ...campFileFields, ...StoredFileFields },
  {
    title: 'CampFile',
    description: 'A file shared with a camp, stored on a team of its uploader',
    examples: [
      {
        ...FILE_EXAMPLE,
        url: 'https://music.example.com/api/v1/files/download?token=eyJtIjoiR0VUIiwiayI6InRlYW1zLzcvZG9jdW1lbnQifQ.Pd1',
        downloadUrl:
          'https://music.example.com/api/v1/files/download?token=eyJtIjoiR0VUIiwiayI6InRlYW1zLzcvZG9jdW1lbnQifQ.Pd2',
        urlExpiresAt: '2026-03-09T13:00:00.000Z',
        audio: null,
        peaks: { status: 'none' },
      },
    ],
  },
);
export const CampFilePage = Page(CampFile);
export const CampFileUpload = Type.Object(
  {
    ...campFileFields,
    ...UploadTicketFields('fileKey', 'The key of the upload (registration uses the file id)'),
  },
  {
    title: 'CampFileUpload',
    description: 'The pending camp file and where to PUT its bytes',
    examples: [
      {
        ...FILE_EXAMPLE,
        status: 'pending',
        uploadUrl:
          'https://music.example.com/api/v1/files/upload?token=eyJtIjoiUFVUIiwiayI6InRlYW1zLzcvZG9jdW1lbnQifQ.Up1',
        method: 'PUT',
        headers: { 'content-type': 'application/pdf' },
        fileKey: 'teams/7/document/0193a5f3-7081-7c93-8ea5-b02b3c4d5e6f.pdf',
        expiresAt: '2026-03-09T13:00:00.000Z',
      },
    ],
  },
);
