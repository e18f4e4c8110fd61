/** The module graph's rules (`npm run lint:deps`). */

const TEST_FILES = ['\\.test\\.ts$', 'test-support\\.ts$', '/fixtures/'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'services-from-composition-only',
      comment:
        'src/services.ts wires the whole process; a module that imported it would depend on every other one. ' +
        "src/app-types.ts takes its type to declare Fastify's `services`.",
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: ['^src/(services|app|app-types|server)\\.ts$', '^src/cli/', ...TEST_FILES],
      },
      to: { path: '^src/services\\.ts$' },
    },
    {
      name: 'client-stands-alone',
      comment:
        'The client package (`team-music-workspace/client`) runs in browsers and in other programs: it holds ' +
        'openapi-fetch and the generated types only, never a module of the service or a Node built-in.',
      severity: 'error',
      from: { path: '^src/client/', pathNot: TEST_FILES },
      to: { pathNot: ['^src/client/', '(^|/)node_modules/openapi-fetch/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are edges of the graph too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
