import { Type } from '@sinclair/typebox';
import { errorResponse } from '../../../shared/schemas.ts';

const TusResumable = Type.Literal('1.0.0', { description: 'The tus protocol version; 1.0.0 only' });
const ByteCount = Type.String({ pattern: '^[0-9]{1,15}$', maxLength: 15, description: 'A number of bytes' });

export const ResumableUploadParams = Type.Object(
  {
    uploadId: Type.String({
      pattern: '^[0-9a-f]{32}$',
      maxLength: 32,
      description: 'The upload’s id: the last segment of the Location its creation answered',
    }),
  },
  { title: 'ResumableUploadParams', examples: [{ uploadId: '3f2c9a1e5b7d4c6e8f0a1b2c3d4e5f60' }] },
);

export const CreateResumableHeaders = Type.Object(
  {
    'tus-resumable': TusResumable,
    'upload-length': {
      ...ByteCount,
      description: 'The whole size in bytes; required (deferred lengths are refused)',
    },
    'upload-metadata': Type.String({
      maxLength: 8192,
      description:
        'Comma-separated `name base64(value)` pairs: `token` (the ticket’s resumable token, required), ' +
        '`filetype` (the ticket’s media type or application/octet-stream) and `filename`',
    }),
  },
  {
    title: 'CreateResumableUploadHeaders',
    additionalProperties: true,
    examples: [
      {
        'tus-resumable': '1.0.0',
        'upload-length': '52428800',
        'upload-metadata': 'token ZXlKdElqb2lVRlZVSW4wLlhx,filetype YXVkaW8vd2F2,filename bWl4Lndhdg==',
      },
    ],
  },
);

export const ResumableHeaders = Type.Object(
  { 'tus-resumable': TusResumable },
  { title: 'ResumableUploadHeaders', additionalProperties: true, examples: [{ 'tus-resumable': '1.0.0' }] },
);

export const PatchResumableHeaders = Type.Object(
  {
    'tus-resumable': TusResumable,
    'upload-offset': { ...ByteCount, description: 'Where these bytes start: the offset HEAD answered' },
  },
  {
    title: 'PatchResumableUploadHeaders',
    additionalProperties: true,
    examples: [
      {
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
      },
    ],
  },
);

export const ResumableChunk = Type.Unsafe<unknown>({
  description: 'The next bytes of the upload, from Upload-Offset on',
  content: { 'application/offset+octet-stream': { schema: { type: 'string', format: 'binary' } } },
});

const empty = (description: string) => Type.Null({ description });

export const resumableAnswers = {
  created: empty('Created: `Location` is the upload’s URL (relative); send its bytes there with PATCH'),
  offset: empty('The upload’s state: `Upload-Offset` (bytes received) and `Upload-Length`'),
  patched: empty('Taken: `Upload-Offset` is the new offset; at the last byte the bytes were published'),
  terminated: empty('Terminated: the bytes went and the quota they held was handed back'),
  options: empty('What the server supports: `Tus-Version`, `Tus-Extension` (creation, termination)'),
};

export const resumableRefusals = {
  token: { 403: errorResponse('invalid_signature (missing, tampered or foreign token) or url_expired') },
  unknown: { 404: errorResponse('No such upload (never created, terminated, published or removed)') },
  closed: {
    409: errorResponse(
      'upload_closed: the ticket’s upload was registered, discarded or expired; conflict: Upload-Offset ' +
        'is not the upload’s offset, or another request is writing the upload (HEAD, then resume)',
    ),
  },
  createConflicts: {
    409: errorResponse(
      'upload_closed: the ticket’s upload was registered, discarded or expired; too_many_open_uploads: ' +
        'the team has no open-upload slot left',
    ),
  },
  tooLarge: {
    413: errorResponse(
      'payload_too_large: Upload-Length is over the ticket’s limit, or more bytes than announced; ' +
        'quota_exceeded: the length does not fit in the team’s free storage',
    ),
  },
  type: { 415: errorResponse('unsupported_media_type: not the type the ticket names') },
  patchType: {
    415: errorResponse('unsupported_media_type: PATCH bodies are application/offset+octet-stream'),
  },
};
