import { sessionsPart } from './together-sessions.ts';
import { threadsPart } from './together-threads.ts';
import { tracksPart } from './together-tracks.ts';

/** Every area's part of the answer, by key. */
export const TOGETHER_PARTS = { tracks: tracksPart, sessions: sessionsPart, threads: threadsPart };
