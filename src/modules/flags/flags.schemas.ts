import { Type } from '@sinclair/typebox';

export const Flags = Type.Object(
  {
    flags: Type.Record(Type.String(), Type.Boolean(), {
      description: 'Every configured flag by name: true when it is on for the caller',
    }),
  },
  {
    title: 'FeatureFlags',
    examples: [{ flags: { newEditor: true, legacyExport: false, stemSplitter: true } }],
  },
);
