import type { Principal } from '../../plugins/auth.ts';
import type { DownloadMark } from '../files/download-marks.ts';
import type { Listener } from './plays/plays.repository.ts';

/** The download-mark topic of a version's stream URL: fetching it records a play. */
export const PLAY_TOPIC = 'version_play';

/** Fetches of a stream URL by the same listener this close together are one play. */
export const PLAY_REPEAT_SECONDS = 30;

/** The mark of a version's stream URL handed to `principal`: `<versionId>.u<userId>` or `<versionId>.k<keyId>`. */
export function playMark(versionId: number, principal: Principal): DownloadMark {
  const who = principal.type === 'session' ? `u${principal.userId}` : `k${principal.keyId}`;
  return { topic: PLAY_TOPIC, subject: `${versionId}.${who}` };
}

const SUBJECT = /^([1-9]\d{0,9})\.(?:u([0-9a-f-]{36})|k([1-9]\d{0,9}))$/;

/** The version and listener of a play mark's subject, or undefined for anything else. */
export function parsePlaySubject(subject: string): { versionId: number; listener: Listener } | undefined {
  const match = SUBJECT.exec(subject);
  if (!match) return undefined;
  const versionId = Number(match[1]);
  const listener: Listener = match[2]
    ? { userId: match[2], keyId: null }
    : { userId: null, keyId: Number(match[3]) };
  return { versionId, listener };
}
