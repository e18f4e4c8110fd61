import { Type } from '@sinclair/typebox';

const Version = Type.Union([Type.String(), Type.Null()], {
  description: 'A version such as 2.4.1; null when not configured',
});

const PerPlatform = Type.Object({ ios: Version, android: Version, web: Version });

export const AppVersion = Type.Object(
  {
    latest: PerPlatform,
    minimumSupported: Type.Object(PerPlatform.properties, {
      description: 'Clients below this version should make the user update before going on',
    }),
    updateUrl: Type.Union([Type.String(), Type.Null()], {
      description: 'Where users update the app; always present, null when not configured',
    }),
  },
  {
    title: 'AppVersion',
    examples: [
      {
        latest: { ios: '2.4.1', android: '2.4.0', web: '2.5.0' },
        minimumSupported: { ios: '2.0.0', android: '2.0.0', web: null },
        updateUrl: 'https://lunavale.example/app',
      },
    ],
  },
);
