import { Type } from '@sinclair/typebox';
import { withOlderNames } from '../../../shared/older-names.ts';
import { Id } from '../../../shared/schemas.ts';
import {
  audioUploadFields,
  audioUploadOlderNames,
  RegisterUploadBody,
  UploadTicketFields,
} from '../../files/files.schemas.ts';

export const VersionFileParams = Type.Object({ id: Id, versionId: Id, fileId: Id });

export const CreateVersionFileBody = withOlderNames(Type.Object(audioUploadFields), audioUploadOlderNames);

export const VersionFileUpload = Type.Object({
  id: Id,
  versionId: Id,
  fileName: Type.String(),
  contentType: Type.String({ description: 'Told from the file name; the upload must be sent as this type' }),
  ...UploadTicketFields(
    'fileKey',
    'Send it to POST /api/v1/tracks/{id}/versions/{versionId}/files once the bytes are uploaded',
  ),
});

export const RegisterVersionFileBody = RegisterUploadBody;
