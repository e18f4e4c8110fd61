import { defineConfig } from 'vitest/config';

// Files that replace a library module with a spy need a fresh module graph; every other file
// shares one per worker, which saves loading the embedded database engine again for each file.
const needsIsolation = [
  'src/modules/auth/signup-login.test.ts',
  'src/modules/auth/external-oidc.test.ts',
  'src/modules/auth/access-tokens.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'isolated', include: needsIsolation, isolate: true } },
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: needsIsolation,
          isolate: false,
        },
      },
    ],
  },
});
