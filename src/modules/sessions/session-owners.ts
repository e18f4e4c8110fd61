import type { FileOwner } from '../files/files.service.ts';

/** What a session's shared files are owned by in the files area. */
export const SESSION_FILE_OWNER = 'session_file';
/** What the audio of a session's recordings is owned by; each recording points at its file. */
export const SESSION_RECORDING_OWNER = 'session_recording';

export const sessionFilesOwner = (sessionId: number): FileOwner => ({
  type: SESSION_FILE_OWNER,
  id: sessionId,
});
export const recordingsOwner = (sessionId: number): FileOwner => ({
  type: SESSION_RECORDING_OWNER,
  id: sessionId,
});

/** Every files-area owner of a session's files (for deleting them with it). */
export const ownersOfSession = (sessionId: number) => [
  { type: SESSION_FILE_OWNER, ids: [sessionId] },
  { type: SESSION_RECORDING_OWNER, ids: [sessionId] },
];
