import { Type } from '@sinclair/typebox';
import { Id } from '../../shared/schemas.ts';

export const StorageStatsQuery = Type.Object({ teamId: Id });

const Usage = Type.Object({ bytes: Type.Integer({ minimum: 0 }), files: Type.Integer({ minimum: 0 }) });

const usage = (bytes: number, files: number) => ({ bytes, files });

export const StorageStats = Type.Object(
  {
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
  },
  {
    title: 'StorageStats',
    examples: [
      {
        teamId: 7,
        plan: { id: 'pro', name: 'Pro' },
        quotaBytes: 107_374_182_400,
        usedBytes: 1_288_490_189,
        availableBytes: 106_085_692_211,
        usedPercent: 1.2,
        fileCount: 143,
        pendingUploads: 1,
        reservedBytes: 41_203_712,
        byKind: {
          audio: usage(1_201_668_096, 96),
          image: usage(25_165_824, 31),
          video: usage(52_428_800, 4),
          document: usage(9_227_469, 12),
        },
      },
    ],
  },
);
