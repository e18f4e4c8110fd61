import type { Db } from '../../db/client.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Clock } from '../../shared/clock.ts';
import type { FilesService } from '../files/files.service.ts';
import { AlbumTracksService } from './album-tracks.service.ts';
import { AlbumsService } from './albums.service.ts';
import { AlbumCoverService } from './cover.service.ts';
import { registerAlbumStatusUsage } from './status-usage.ts';

/** The services of the albums area, spread into the application's services container. */
export function createAlbumsServices(db: Db, clock: Clock, files: FilesService, events: EventLog) {
  registerAlbumStatusUsage();
  return {
    albums: new AlbumsService(db, clock, files, events),
    albumTracks: new AlbumTracksService(db, clock, files, events),
    albumCover: new AlbumCoverService(db, clock, files, events),
  };
}
