import type { TeamRole } from '../../../db/schema/index.ts';
import type { DownloadMark } from '../../files/download-marks.ts';
import type { StemViewer } from './stem-rights.ts';

/**
 * The download-mark topic of a stem's audio URLs: every fetch checks the stem's rights as they are then, so a
 * restriction ends the URLs handed out before it at once.
 */
export const STEM_AUDIO_TOPIC = 'stem_audio';

const ROLE_CODES: Record<TeamRole, string> = { owner: 'o', admin: 'a', member: 'm' };
const KIND_CODES = { api_key: 'k', shared_team: 's', review_link: 'r' } as const;
const SUBJECT = /^([1-9]\d{0,9})\.([oamksr])$/;

/** The mark of a stem's audio URL handed to `viewer`: `<stemId>.<who>`. */
export function stemAudioMark(stemId: number, viewer: StemViewer): DownloadMark {
  const who = viewer.kind === 'member' ? ROLE_CODES[viewer.role] : KIND_CODES[viewer.kind];
  return { topic: STEM_AUDIO_TOPIC, subject: `${stemId}.${who}` };
}

/** The stem and viewer a mark's subject names, or undefined for anything else. */
export function parseStemAudioMark(subject: string): { stemId: number; viewer: StemViewer } | undefined {
  const match = SUBJECT.exec(subject);
  if (!match) return undefined;
  const code = match[2]!;
  const role = (Object.keys(ROLE_CODES) as TeamRole[]).find((r) => ROLE_CODES[r] === code);
  const kind = (Object.keys(KIND_CODES) as (keyof typeof KIND_CODES)[]).find((k) => KIND_CODES[k] === code);
  const viewer: StemViewer = role ? { kind: 'member', role } : { kind: kind! };
  return { stemId: Number(match[1]), viewer };
}
