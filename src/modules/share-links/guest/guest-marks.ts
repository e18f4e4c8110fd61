import type { DownloadMark, DownloadMarks } from '../../files/download-marks.ts';
import type { FileRow } from '../../files/files.repository.ts';
import type { Delivery } from './link-rights.ts';

/** The download-mark topic of the audio URLs review links hand out. */
export const SHARE_LINK_TOPIC = 'share_link';

/** How long an audio URL handed to a guest lives. */
export const GUEST_URL_SECONDS = 30 * 60;

/** What a guest's URL names: the way in, the link's password version then, how it delivers, and the file. */
export type GuestMark = { recipientId: number; passwordVersion: number; delivery: Delivery; fileId: number };

const SUBJECT = /^([1-9]\d{0,9})\.(\d{1,10})\.([sd])\.([1-9]\d{0,9})$/;

export function guestMark(mark: GuestMark): DownloadMark {
  const { recipientId, passwordVersion, delivery, fileId } = mark;
  return {
    topic: SHARE_LINK_TOPIC,
    subject: `${recipientId}.${passwordVersion}.${delivery === 'stream' ? 's' : 'd'}.${fileId}`,
  };
}

/** The mark a subject names, or undefined for anything else. */
export function parseGuestMark(subject: string): GuestMark | undefined {
  const match = SUBJECT.exec(subject);
  if (!match) return undefined;
  return {
    recipientId: Number(match[1]),
    passwordVersion: Number(match[2]),
    delivery: match[3] === 's' ? 'stream' : 'download',
    fileId: Number(match[4]),
  };
}

/** A signed URL of `file` for a guest: inline to play it, as an attachment to save it. */
export function guestFileUrl(marks: DownloadMarks, file: FileRow, mark: GuestMark) {
  return marks.sign(
    {
      key: file.key,
      expiresInSeconds: GUEST_URL_SECONDS,
      downloadName: file.originalName,
      disposition: mark.delivery === 'stream' ? 'inline' : 'attachment',
      contentType: file.contentType,
    },
    guestMark(mark),
  );
}
