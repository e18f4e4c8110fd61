import { fileURLToPath } from 'node:url';
import { prlimitPath } from './ffmpeg.ts';

/** Share of the memory limit the JavaScript heap of a child process may take. */
const HEAP_SHARE = 0.75;

/**
 * The command running `script` (a module next to this one, named without extension) as a Node process under
 * a memory limit: its heap, and with `prlimit` its data segment (what Node allocates outside the heap too;
 * an address-space limit would stop V8 from starting). From source, Node gets TypeScript support.
 */
export function nodeChildCommand(
  script: string,
  argument: unknown,
  maxMemoryBytes: number,
): { file: string; args: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  const path = fileURLToPath(new URL(`./${script}.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  const heapMb = Math.max(64, Math.floor((maxMemoryBytes * HEAP_SHARE) / 2 ** 20));
  const node = [
    process.execPath,
    ...(fromSource ? ['--import', 'tsx'] : []),
    `--max-old-space-size=${heapMb}`,
    path,
    JSON.stringify(argument),
  ];
  const limiter = prlimitPath();
  if (!limiter) return { file: node[0]!, args: node.slice(1) };
  return { file: limiter, args: [`--data=${maxMemoryBytes}`, '--', ...node] };
}
