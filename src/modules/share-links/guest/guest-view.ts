import type { DownloadMarks } from '../../files/download-marks.ts';
import { peaksView } from '../../files/file-view.ts';
import type { FileRow } from '../../files/files.repository.ts';
import type { Entry } from './guest-access.ts';
import { type GuestMark, guestFileUrl } from './guest-marks.ts';
import {
  type Delivery,
  stemDownloadFile,
  stemStreamFile,
  versionDownloadFile,
  versionStreamFile,
} from './link-rights.ts';

/** What a guest sees of a link: its words and rights, then per track the version shown and its stems. */
export function guestView(marks: DownloadMarks, { wayIn, content }: Entry) {
  const { link } = wayIn;
  const allow = link.allowDownload;
  const url = (file: FileRow | undefined, delivery: Delivery) => {
    if (!file) return null;
    const mark: GuestMark = {
      recipientId: wayIn.recipientId,
      passwordVersion: link.passwordVersion,
      delivery,
      fileId: file.id,
    };
    return guestFileUrl(marks, file, mark);
  };
  const expiries: Date[] = [];
  const href = (signed: ReturnType<typeof url>) => {
    if (!signed) return null;
    expiries.push(signed.expiresAt);
    return signed.url;
  };
  const items = content.items.map((item) => {
    const stream = versionStreamFile(item, allow);
    const download = versionDownloadFile(item, allow);
    return {
      track: item.track,
      version: {
        id: item.version.id,
        name: item.version.name,
        durationSeconds: item.version.durationSeconds ?? item.audio?.audio?.durationSeconds ?? null,
        peaks: item.audio ? peaksView(item.audio, true) : null,
        streamUrl: href(url(stream, 'stream')),
        downloadUrl: href(url(download, 'download')),
        downloadable: download !== undefined,
      },
      stems: item.stems.map((stem) => {
        const streamed = stemStreamFile(stem);
        const saved = stemDownloadFile(stem, allow);
        return {
          id: stem.id,
          name: stem.name,
          instrument: stem.instrument,
          peaks: stem.file ? peaksView(stem.file, true) : null,
          downloadable: saved !== undefined,
          streamUrl: href(url(streamed, 'stream')),
          downloadUrl: href(url(saved, 'download')),
        };
      }),
    };
  });
  return {
    link: {
      title: link.title,
      message: link.message,
      expiresAt: link.expiresAt,
      allowDownload: allow,
      allowComments: link.allowComments,
      team: { name: wayIn.teamName },
    },
    items,
    urlExpiresAt: expiries[0] ?? null,
  };
}
