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
  },
);

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
  },
);
