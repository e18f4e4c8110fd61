import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestContext } from './helpers/context.ts';
import { testWav } from './helpers/file-flow.ts';
import { closedPort } from './helpers/ports.ts';

const run = promisify(execFile);

/**
 * The client as other programs get it: compiled by `tsconfig.client.json` (as `npm run build:client`
 * does) into a package folder of this run that carries the project's name and `exports` map, so a script
 * in it imports `team-music-workspace/client` by the package's own name. A folder per run, not `dist/`:
 * runs may overlap, and `npm run build` may be clearing `dist/` meanwhile.
 */
const packageDir = `.test-build-client-${process.pid}`;
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));

let port = 0;
beforeAll(async () => {
  // Signed upload URLs name the service's public origin: the port it is about to listen on.
  port = await closedPort();
});
const ctx = useTestContext({ env: () => ({ PUBLIC_URL: `http://127.0.0.1:${port}` }) });
let baseUrl = '';

beforeAll(async () => {
  rmSync(packageDir, { recursive: true, force: true });
  mkdirSync(packageDir);
  writeFileSync(
    join(packageDir, 'package.json'),
    JSON.stringify({ name: manifest.name, type: manifest.type, exports: manifest.exports }),
  );
  cpSync('test/fixtures/client-package', packageDir, { recursive: true });
  await Promise.all([
    run(process.execPath, [
      'node_modules/typescript/bin/tsc',
      '-p',
      'tsconfig.client.json',
      '--outDir',
      join(packageDir, 'dist/client'),
    ]),
    ctx.app.listen({ host: '127.0.0.1', port }),
  ]);
  baseUrl = `http://127.0.0.1:${port}`;
}, 120_000);

afterAll(async () => {
  rmSync(packageDir, { recursive: true, force: true });
  await ctx.app.server.close();
});

/** Runs a script of the package folder with plain Node.js (the runtime of the tests). */
async function node(args: string[], env: Record<string, string> = {}) {
  return run(process.execPath, args, { cwd: packageDir, env: { ...process.env, ...env }, timeout: 30_000 });
}

describe('the client package', () => {
  it('exports compiled JavaScript and its declarations, with no TypeScript import left', () => {
    expect(manifest.exports['./client']).toEqual({
      types: './dist/client/index.d.ts',
      default: './dist/client/index.js',
    });
    const files = readdirSync(join(packageDir, 'dist/client')).sort();
    expect(files).toEqual(expect.arrayContaining(['index.js', 'index.d.ts', 'schema.d.ts']));
    for (const file of files.filter((name) => name.endsWith('.js'))) {
      const code = readFileSync(join(packageDir, 'dist/client', file), 'utf8');
      const imports = [...code.matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
      // Its own modules, and openapi-fetch: nothing of the server, no Node built-in.
      expect(imports.filter((name) => !/^\.\/[\w-]+\.js$/.test(name!) && name !== 'openapi-fetch')).toEqual(
        [],
      );
      expect(files).toContain(file.replace(/\.js$/, '.d.ts'));
      if (file === 'index.js')
        expect(imports).toEqual(expect.arrayContaining(['openapi-fetch', './errors.js']));
    }
  });

  it('runs from a plain .mjs file under Node.js: pages, errors and keys', async () => {
    const team = await ctx.newTeam();
    for (const title of ['A', 'B', 'C', 'D', 'E']) await ctx.newTrack(team, { title: `Song ${title}` });

    const { stdout } = await node(['main.mjs', baseUrl, team.owner.token, String(team.id)]);
    const seen = JSON.parse(stdout);

    expect(seen.pages).toEqual([['Song A', 'Song B'], ['Song C', 'Song D'], ['Song E']]);
    expect(seen.missing).toMatchObject({ name: 'ApiError', isError: true, status: 404, code: 'not_found' });
    expect(seen.missing.requestId).toEqual(expect.any(String));
    expect(seen.anonymous).toMatchObject({ status: 401, code: null, message: 'Unauthorized', details: [] });
    expect(seen.invalid).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(seen.invalid.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: '/body/name' })]),
    );
    expect(seen.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("runs the README's examples as written: sign-in, a retried create, an upload, a paged list", async () => {
    const readme = readFileSync('src/client/README.md', 'utf8');
    const blocks = [...readme.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    writeFileSync(join(packageDir, 'example.mjs'), blocks.join('\n'));
    const wav = testWav(0.5);
    writeFileSync(join(packageDir, 'night-drive.wav'), wav);
    const user = await ctx.newUser();
    const team = await ctx.newTeam(user, 'Readme band');
    const earlier = await ctx.newTrack(team, { title: 'Earlier song' });

    // The first answer of the create is lost: the example's retry must get the same track back.
    const { stdout, stderr } = await node(['--import', './lose-first-answer.mjs', 'example.mjs'], {
      API_URL: baseUrl,
      API_EMAIL: user.email,
      API_PASSWORD: user.password,
    });
    expect(stderr).toContain('lost the answer of POST /api/v1/tracks');

    const tracks = await ctx.request({
      method: 'GET',
      url: `/api/v1/tracks?teamId=${team.id}`,
      token: user.token,
    });
    const created = tracks.json().items.filter((track: { title: string }) => track.title === 'Night drive');
    expect(created).toHaveLength(1);
    const id = created[0].id;
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe(`signed in as ${user.email}, team Readme band`);
    expect(lines[1]).toBe(`created track ${id} "Night drive"`);
    expect(lines[2]).toBe('registered night-drive.wav: 0.5 s');
    expect(lines.slice(3, 5).sort()).toEqual([
      `track ${earlier.id} "Earlier song"`,
      `track ${id} "Night drive"`,
    ]);
    expect(lines[5]).toMatch(/^error 404 not_found \(request \S+\)$/);
    expect(lines).toHaveLength(6);
  });

  it('bundles for a browser with nothing of Node.js', async () => {
    const result = await build({
      stdin: {
        contents: "export * from 'team-music-workspace/client';",
        resolveDir: packageDir,
        sourcefile: 'browser-entry.mjs',
      },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs).filter(
      (input) => !input.endsWith('/browser-entry.mjs'),
    );
    expect(
      inputs.filter((input) => !/(^|\/)(dist\/client|node_modules\/openapi-fetch)\//.test(input)),
    ).toEqual([]);
    const code = result.outputFiles[0]!.text;
    expect(code).toContain('createApiClient');
    expect(code).not.toMatch(/\brequire\(|["']node:/);
  });

  it('types other TypeScript programs with the names of the schemas of the document', async () => {
    const schema = readFileSync(join(packageDir, 'dist/client/schema.d.ts'), 'utf8');
    expect(schema).toMatch(/^export interface components \{\n\s+schemas: \{/m);
    expect(schema).toMatch(/^\s+ErrorResponse: \{/m);
    for (const name of [
      'TrackDetail',
      'TrackSummaryPage',
      'TrackCreate',
      'Album',
      'ChatMessage',
      'WebhookTrackCreated',
    ])
      expect(schema).toMatch(new RegExp(`^\\s+${name}: \\{`, 'm'));

    // A program type-checked against the built declarations only, strictly, without Node's types.
    writeFileSync(
      join(packageDir, 'consumer.mts'),
      `import { type ApiError, type components, createApiClient, pages, unwrap } from 'team-music-workspace/client';

type Schemas = components['schemas'];
// The schemas the document names: answers are typed by them.
const failure: Schemas['ErrorResponse'] = { error: 'Not found', code: 'not_found', details: [] };
type Detail = Schemas['TrackDetail'];
type Summary = Schemas['TrackSummaryPage']['items'][number];

export async function titles(baseUrl: string, token: string, teamId: number): Promise<string[]> {
  const api = createApiClient({ baseUrl, token });
  const track: Detail = unwrap(await api.GET('/api/v1/tracks/{id}', { params: { path: { id: 1 } } }));
  const titles: string[] = [track.title];
  for await (const page of pages((cursor) => api.GET('/api/v1/tracks', { params: { query: { teamId, cursor } } }))) {
    for (const item of page.items as Summary[]) titles.push(item.title);
  }
  const code: string | undefined = (null as unknown as ApiError).code ?? failure.code;
  return code ? titles : [];
}

// @ts-expect-error: a path the API does not have
createApiClient().GET('/api/v1/no-such-path');
`,
    );
    writeFileSync(
      join(packageDir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          lib: ['ES2022', 'DOM'],
          types: [],
          noEmit: true,
          skipLibCheck: false,
        },
        files: ['consumer.mts'],
      }),
    );
    const checked = await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', packageDir]).catch(
      (error: { stdout: string }) => error,
    );
    expect(checked.stdout).toBe('');
  });
});
