import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery, Uuid } from '../../../shared/schemas.ts';
import {
  EXAMPLE_RESUMABLE,
  LibraryFileFields,
  StoredFileFields,
  UploadFileName,
  UploadFileSize,
  UploadMediaType,
  UploadTicketFields,
} from '../../files/files.schemas.ts';
import { EXAMPLE_TIME, EXAMPLE_USER } from '../organisations.schemas.ts';
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
    examples: [
      { teamId: 7, fileName: 'night-drive-lyrics.pdf', fileSize: 48213, mediaType: 'application/pdf' },
    ],
  },
);

const EXAMPLE_FILE = {
  id: 88,
  fileName: 'night-drive-lyrics.pdf',
  fileSize: 48213,
  mediaType: 'application/pdf',
  kind: 'document',
  createdAt: EXAMPLE_TIME,
  campId: 5,
  teamId: 7,
  uploadedBy: EXAMPLE_USER,
};

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
        ...EXAMPLE_FILE,
        status: 'ready',
        url: 'https://api.example.com/api/v1/files/download?key=t7%2Ff88&expires=1773484200&sig=3f9a1c',
        downloadUrl:
          'https://api.example.com/api/v1/files/download?key=t7%2Ff88&expires=1773484200&download=1&sig=8b2d4e',
        urlExpiresAt: '2026-03-14T10:30:00.000Z',
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
    description: 'A pending camp file with the signed URL to PUT its bytes to',
    examples: [
      {
        ...EXAMPLE_FILE,
        status: 'pending',
        uploadUrl: 'https://api.example.com/api/v1/files/upload?key=t7%2Ff88&expires=1773484200&sig=5c7e9a',
        resumable: EXAMPLE_RESUMABLE,
        method: 'PUT',
        headers: { 'content-type': 'application/pdf', 'content-length': '48213' },
        fileKey: 't7/f88',
        expiresAt: '2026-03-14T10:30:00.000Z',
      },
    ],
  },
);
