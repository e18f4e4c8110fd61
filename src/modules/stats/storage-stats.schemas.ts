import { Type } from '@sinclair/typebox';
import { Id } from '../../shared/schemas.ts';

export const StorageStatsQuery = Type.Object({ teamId: Id });

const Usage = Type.Object({ bytes: Type.Integer({ minimum: 0 }), files: Type.Integer({ minimum: 0 }) });

export const StorageStats = Type.Object({
  teamId: Id,
  plan: Type.Object({ id: Type.String(), name: Type.String() }),
  quotaBytes: Type.Integer({ minimum: 0, description: "The plan's storage quota" }),
  usedBytes: Type.Integer({ minimum: 0, description: 'Bytes of all registered files of the team' }),
  availableBytes: Type.Integer({ minimum: 0 }),
  usedPercent: Type.Number({ minimum: 0, description: 'usedBytes / quotaBytes × 100, two decimals' }),
  fileCount: Type.Integer({ minimum: 0 }),
  pendingUploads: Type.Integer({
    minimum: 0,
    description: 'Open uploads: upload URLs issued and not registered, discarded or expired yet',
  }),
  reservedBytes: Type.Integer({
    minimum: 0,
    description:
      'Bytes the open uploads hold of the quota: each its announced fileSize, else the bytes it received ' +
      '(and is receiving). A new upload URL with a fileSize, or a PUT, is refused (413 quota_exceeded) when ' +
      'usedBytes + reservedBytes + its bytes would pass quotaBytes; on registration the real size counts in ' +
      'usedBytes instead',
  }),
  byKind: Type.Object({ audio: Usage, image: Usage, video: Usage, document: Usage }),
});
