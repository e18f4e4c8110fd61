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
    description: 'Upload URLs issued and not registered yet (they do not count towards the quota)',
  }),
  byKind: Type.Object({ audio: Usage, image: Usage, video: Usage, document: Usage }),
});
