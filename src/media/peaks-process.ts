/**
 * Entry of the child process that draws a waveform (see peaks-runner.ts): decodes the audio streamed to its
 * standard input in bounded memory and prints the PeaksResult as JSON.
 */
import { computePeaks, type PeaksOptions } from './peaks.ts';

const options = JSON.parse(process.argv[2] ?? '{}') as PeaksOptions;
const result = await computePeaks(process.stdin, options);
// Done even when input remains (bytes after a WAV's data): the rest is not read.
process.stdout.write(JSON.stringify(result), () => process.exit(0));
