import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { prlimitPath } from './ffmpeg.ts';

/** Share of the memory limit the JavaScript heap of a child process may take. */
const HEAP_SHARE = 0.75;

let baseline: Promise<number> | undefined;

/**
 * The data segment a Node process of this runtime holds before running anything, in bytes. Node 24's V8
 * reserves about 560 MB of address space up front (its code range and heap cages) that counts against a data
 * limit without being used; Node 20 about 50 MB. A child's limit is this plus its own allowance. Measured once.
 */
export function nodeDataBaseline(): Promise<number> {
  baseline ??= promisify(execFile)(process.execPath, [
    '-e',
    "process.stdout.write(/VmData:\\s*(\\d+)/.exec(require('fs').readFileSync('/proc/self/status','utf8'))?.[1] ?? '0')",
  ]).then(
    ({ stdout }) => Number(stdout) * 1024,
    () => 0,
  );
  return baseline;
}

/**
 * The command running `script` (a module next to this one, named without extension) as a Node process under
 * a memory limit: its heap, and with `prlimit` its data segment beyond what the runtime reserves at start
 * (what Node allocates outside the heap too; an address-space limit would stop V8 from starting). From
 * source, Node loads TypeScript as the CLI does.
 */
export async function nodeChildCommand(
  script: string,
  argument: unknown,
  maxMemoryBytes: number,
): Promise<{ file: string; args: string[] }> {
  const fromSource = import.meta.url.endsWith('.ts');
  const typescript = fileURLToPath(new URL('../../bin/typescript.js', import.meta.url));
  const path = fileURLToPath(new URL(`./${script}.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  const heapMb = Math.max(64, Math.floor((maxMemoryBytes * HEAP_SHARE) / 2 ** 20));
  const node = [
    process.execPath,
    ...(fromSource ? ['--import', typescript] : []),
    `--max-old-space-size=${heapMb}`,
    path,
    JSON.stringify(argument),
  ];
  const limiter = prlimitPath();
  if (!limiter) return { file: node[0]!, args: node.slice(1) };
  const data = (await nodeDataBaseline()) + maxMemoryBytes;
  return { file: limiter, args: [`--data=${data}`, '--', ...node] };
}
