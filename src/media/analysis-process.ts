/**
 * Entry of the child process that computes tempo and key (see music-analysis-runner.ts): streams mono PCM
 * at ANALYSIS_SAMPLE_RATE from FFmpeg, keeps the first MAX_ANALYSED_SECONDS, counts the rest for the
 * duration, and prints the result as JSON. Exits with AUDIO_UNREADABLE_EXIT when the audio cannot be decoded.
 */
import { spawn } from 'node:child_process';
import { ffmpegCommand, useFfmpeg } from './ffmpeg.ts';
import {
  ANALYSIS_SAMPLE_RATE,
  chromaProfile,
  detectTempo,
  estimateKey,
  MAX_ANALYSED_SECONDS,
} from './music-analysis.ts';
import { type AnalysisRequest, AUDIO_UNREADABLE_EXIT, type TempoAndKey } from './music-analysis-runner.ts';

const request = JSON.parse(process.argv[2] ?? '{}') as AnalysisRequest;
useFfmpeg(request.ffmpeg);
const window = new Float32Array(MAX_ANALYSED_SECONDS * ANALYSIS_SAMPLE_RATE);
let kept = 0;
let totalBytes = 0;
// A sample can straddle two chunks of the pipe.
let carry = Buffer.alloc(0);

const command = ffmpegCommand(
  ['-i', request.input, '-vn', '-ac', '1', '-ar', String(ANALYSIS_SAMPLE_RATE), '-f', 'f32le', '-'],
  request.limits,
);
const ffmpeg = spawn(command.file, command.args, { stdio: ['ignore', 'pipe', 'pipe'] });
ffmpeg.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
ffmpeg.stdout.on('data', (chunk: Buffer) => {
  totalBytes += chunk.length;
  if (kept >= window.length) return;
  const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
  const whole = bytes.length - (bytes.length % 4);
  const count = Math.min(whole / 4, window.length - kept);
  for (let i = 0; i < count; i++) window[kept + i] = bytes.readFloatLE(i * 4);
  kept += count;
  carry = Buffer.from(bytes.subarray(whole));
});
ffmpeg.on('close', (code) => {
  const frames = Math.floor(totalBytes / 4);
  if (code !== 0 || frames === 0) {
    process.exitCode = AUDIO_UNREADABLE_EXIT;
    return;
  }
  const analysed = window.subarray(0, kept);
  const result: TempoAndKey = {
    tempoBpm: detectTempo(analysed),
    key: estimateKey(chromaProfile(analysed)),
    durationSeconds: Math.round((frames / ANALYSIS_SAMPLE_RATE) * 1000) / 1000,
    analysedSeconds: Math.round((kept / ANALYSIS_SAMPLE_RATE) * 1000) / 1000,
  };
  process.stdout.write(JSON.stringify(result));
});
