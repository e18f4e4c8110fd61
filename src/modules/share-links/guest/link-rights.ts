import type { ShareDownload } from '../../../db/schema/index.ts';
import type { FileRow } from '../../files/files.repository.ts';
import { mayDownloadStem } from '../../tracks/stems/stem-rights.ts';
import type { ItemStem, LinkItem } from './link-items.repository.ts';

/** How a guest receives a file: played in place, or saved. */
export type Delivery = 'stream' | 'download';

/** What a file handed out through a link is: the audio of a version, or of one of its stems. */
export type FileRef = { file: FileRow; trackId: number; versionId: number; stemId?: number };

/** The file a version streams: its original when the link allows originals, else its preview when it has one. */
export function versionStreamFile(item: LinkItem, allow: ShareDownload): FileRow | undefined {
  return allow === 'original' ? item.audio : (item.preview ?? item.audio);
}

/** The file a version downloads: none, its lossy preview (when it has one), or its original audio. */
export function versionDownloadFile(item: LinkItem, allow: ShareDownload): FileRow | undefined {
  if (allow === 'none') return undefined;
  return allow === 'preview' ? item.preview : item.audio;
}

/** Whether review links may hand out the stem's audio at all (its rights; see mayDownloadStem). */
export function stemAudible(stem: ItemStem): boolean {
  return mayDownloadStem(stem, { kind: 'review_link' });
}

export function stemStreamFile(stem: ItemStem): FileRow | undefined {
  return stemAudible(stem) ? stem.file : undefined;
}

/** A stem's audio is saved only through a link that allows originals. */
export function stemDownloadFile(stem: ItemStem, allow: ShareDownload): FileRow | undefined {
  return stemAudible(stem) && allow === 'original' ? stem.file : undefined;
}

/** Every file the link hands out now for `delivery`, by file id: what a marked URL is checked against. */
export function filesAllowed(items: LinkItem[], allow: ShareDownload, delivery: Delivery) {
  const allowed = new Map<number, FileRef>();
  const add = (file: FileRow | undefined, ref: Omit<FileRef, 'file'>) => {
    if (file && !allowed.has(file.id)) allowed.set(file.id, { file, ...ref });
  };
  for (const item of items) {
    const ofVersion = { trackId: item.track.id, versionId: item.version.id };
    add(delivery === 'stream' ? versionStreamFile(item, allow) : versionDownloadFile(item, allow), ofVersion);
    for (const stem of item.stems)
      add(delivery === 'stream' ? stemStreamFile(stem) : stemDownloadFile(stem, allow), {
        ...ofVersion,
        stemId: stem.id,
      });
  }
  return allowed;
}
