import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import ProcessesFirst from './test/sequencer.ts';

// Files that replace a library module with a spy need a fresh module graph; every other file
// shares one per worker, which saves loading the embedded database engine again for each file.
const needsIsolation = [
  'src/modules/auth/signup-login.test.ts',
  'src/modules/auth/external-oidc.test.ts',
  'src/modules/auth/access-tokens.test.ts',
];

// The cost bounds time how long a server process keeps a health probe waiting: they run by themselves,
// one file at a time, after the rest of the suite (`npm test`), so another test file's load on the two
// cores is never taken for the service holding its event loop.
const costFiles = ['test/cost*.test.ts', 'src/**/*.cost.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // Vitest leaves a core free by default; the test files wait on the database as much as they compute.
    maxWorkers: Math.max(2, availableParallelism()),
    // Worker processes are kept between files; each project below says whether its files share modules.
    poolOptions: { forks: { isolate: false } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    sequence: { sequencer: ProcessesFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'isolated',
          include: needsIsolation,
          isolate: true,
          poolOptions: { forks: { isolate: true } },
        },
      },
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...needsIsolation, ...costFiles],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'cost',
          include: costFiles,
          isolate: false,
          poolOptions: { forks: { singleFork: true } },
        },
      },
    ],
  },
});
