import type { Db } from '../../db/client.ts';
import { errors } from '../../shared/errors.ts';
import { fileLinks } from '../files/file-view.ts';
import type { FileRow } from '../files/files.repository.ts';
import type { FileOwner, FilesService } from '../files/files.service.ts';
import * as repo from './albums.repository.ts';

/** The files owner of an album's cover image. */
export const coverOwner = (albumId: number): FileOwner => ({ type: 'album_cover', id: albumId });

/** The cover as the API shows it, with signed links. */
export async function coverView(files: FilesService, albumId: number, file: FileRow) {
  return {
    albumId,
    fileId: file.id,
    fileName: file.originalName,
    contentType: file.contentType,
    size: file.size,
    ...(await fileLinks(files, file)),
    createdAt: file.createdAt,
  };
}

/** An album with its cover (signed links) and its live tracks in album order. */
export async function albumDetail(db: Db, files: FilesService, albumId: number) {
  const album = await repo.findAlbumView(db, albumId);
  if (!album) throw errors.notFound('album');
  const rows = await repo.listAlbumTracks(db, albumId);
  const file = album.coverFileId ? await files.get(album.teamId, album.coverFileId) : undefined;
  return {
    ...album,
    cover: file ? await coverView(files, albumId, file) : null,
    tracks: rows.map((track, position) => ({ ...track, position })),
  };
}
