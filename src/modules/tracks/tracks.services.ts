import type { Db } from '../../db/client.ts';
import type { Clock } from '../../shared/clock.ts';
import type { FilesService } from '../files/files.service.ts';
import { TrackAssetsService } from './assets.ts';
import { CollaboratorsService } from './collaborators.service.ts';
import { TrackCollectionsService } from './collections.service.ts';
import { CommentsService } from './comments.service.ts';
import { ReviewsService } from './reviews.service.ts';
import { TrackSearchService } from './search.service.ts';
import { registerTrackStatusUsage } from './status-usage.ts';
import { TodosService } from './todos.service.ts';
import { TracksService } from './tracks.service.ts';
import { VersionsService } from './versions.service.ts';

/** The services of the tracks area, spread into the application's services container. */
export function createTracksServices(db: Db, clock: Clock, files: FilesService) {
  registerTrackStatusUsage();
  const trackVersions = new VersionsService(db, clock, files);
  return {
    tracks: new TracksService(db, clock, files),
    trackVersions,
    trackReviews: new ReviewsService(db, clock, trackVersions),
    trackTodos: new TodosService(db, clock),
    trackComments: new CommentsService(db, clock),
    trackCollaborators: new CollaboratorsService(db),
    trackCollections: new TrackCollectionsService(db),
    trackSearch: new TrackSearchService(db),
    trackAssets: new TrackAssetsService(db, files),
  };
}
