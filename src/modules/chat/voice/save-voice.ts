import type { Db } from '../../../db/client.ts';
import type { Principal } from '../../../plugins/auth.ts';
import { extensionFor, guessContentType, mediaTypeOf } from '../../../storage/content-type.ts';
import { findPendingByKey } from '../../files/files.repository.ts';
import type { FilesService } from '../../files/files.service.ts';
import type { TracksService } from '../../tracks/tracks.service.ts';
import type { VersionsService } from '../../tracks/versions/versions.service.ts';
import type { ChatVoiceService } from './voice.service.ts';

/**
 * A track made from a voice note: created like `POST /tracks` (same team rules), its first version's audio a
 * copy of the note's bytes, registered like any uploaded audio (quota, facts, waveform). The copy outlives
 * the message. When any step fails, the new track goes again.
 */
export async function saveVoiceAsTrack(
  services: {
    db: Db;
    voice: ChatVoiceService;
    files: FilesService;
    tracks: TracksService;
    versions: VersionsService;
  },
  principal: Principal,
  target: { threadId: string; messageId: string },
  input: { teamId: number; title: string; fileKey: string },
) {
  const { file } = await services.voice.requireVoice(
    principal,
    target.threadId,
    target.messageId,
    input.fileKey,
  );
  const created = await services.tracks.create(principal, {
    title: input.title,
    teamId: input.teamId,
    audioFileName: trackFileName(file),
  });
  try {
    const store = services.files.store;
    const source = await store.get(file.key);
    if (!source) throw new Error('The voice note has no bytes');
    const pending = await findPendingByKey(services.db, input.teamId, created.upload.fileKey);
    await store.put(created.upload.fileKey, source.stream, {
      contentType: pending?.contentType ?? file.contentType,
    });
    await services.versions.registerAudio(principal, created.id, created.versionId, created.upload.fileKey);
  } catch (error) {
    await services.tracks.remove(principal, created.id, 'hard');
    throw error;
  }
  const { upload: _, ...track } = created;
  return { ...track, ...(await services.tracks.get(principal, created.id)) };
}

/** The note's file name, with an extension that tells its type when the name alone does not. */
function trackFileName(file: { originalName: string; contentType: string }): string {
  const name = file.originalName.trim();
  if (mediaTypeOf(guessContentType(name)) === file.contentType) return name;
  const extension = extensionFor(file.contentType);
  return extension ? `${name.replace(/\.[^.]*$/, '')}.${extension}` : name;
}
