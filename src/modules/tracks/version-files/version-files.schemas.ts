import { Type } from '@sinclair/typebox';
import { withOlderNames } from '../../../shared/older-names.ts';
import { Id } from '../../../shared/schemas.ts';
import {
  audioUploadFields,
  audioUploadOlderNames,
  RegisterUploadBody,
  UploadTicketFields,
} from '../../files/files.schemas.ts';
import { EXAMPLE_UPLOAD } from '../tracks.schemas.ts';

const FILE_KEY = 'pending/7/1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b';

export const VersionFileParams = Type.Object({ id: Id, versionId: Id, fileId: Id });

export const CreateVersionFileBody = withOlderNames(
  Type.Object(audioUploadFields, {
    title: 'VersionFileUploadCreate',
    examples: [{ audioFileName: 'night-drive-v2-instrumental.wav', audioFileSize: 40_960_512 }],
  }),
  audioUploadOlderNames,
);

export const VersionFileUpload = Type.Object(
  {
    id: Id,
    versionId: Id,
    fileName: Type.String(),
    contentType: Type.String({
      description: 'Told from the file name; the upload must be sent as this type',
    }),
    ...UploadTicketFields(
      'fileKey',
      'Send it to POST /api/v1/tracks/{id}/versions/{versionId}/files once the bytes are uploaded',
    ),
  },
  {
    title: 'VersionFileUpload',
    examples: [
      {
        id: 741,
        versionId: 502,
        fileName: 'night-drive-v2-instrumental.wav',
        contentType: 'audio/wav',
        ...EXAMPLE_UPLOAD,
        fileKey: FILE_KEY,
      },
    ],
  },
);

export const RegisterVersionFileBody = Type.Object(RegisterUploadBody.properties, {
  title: 'VersionFileRegister',
  examples: [{ fileKey: FILE_KEY }],
});
