import type { Db } from '../../db/client.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Clock } from '../../shared/clock.ts';
import type { FilesService } from '../files/files.service.ts';
import { TrackAssetsService } from './assets/assets.ts';
import { CollaboratorsService } from './collaborators/collaborators.service.ts';
import { TrackCollectionsService } from './collections/collections.service.ts';
import { CommentAttachmentsService } from './comments/comment-attachments.service.ts';
import { CommentsService } from './comments/comments.service.ts';
import { CompareService } from './compare/compare.service.ts';
import { TrackCoversService } from './covers/covers.service.ts';
import { TrackMediaService } from './media/track-media.service.ts';
import { MusicToolsService, type MusicToolsSettings } from './music-tools/music-tools.service.ts';
import { PlaysService } from './plays/plays.service.ts';
import { ReviewsService } from './reviews/reviews.service.ts';
import { TrackSearchService } from './search/search.service.ts';
import { registerTrackStatusUsage } from './status-usage.ts';
import { StemsService } from './stems/stems.service.ts';
import { TodosService } from './todos/todos.service.ts';
import { defineTracksJobs } from './tracks.jobs.ts';
import { TracksService } from './tracks.service.ts';
import { VersionFilesService } from './version-files/version-files.service.ts';
import { VersionsService } from './versions/versions.service.ts';

/** The services of the tracks area, spread into the application's services container. */
export function createTracksServices(deps: {
  db: Db;
  clock: Clock;
  files: FilesService;
  /** Where every change of the area records its event. */
  events: EventLog;
  jobs: JobQueue;
  retentionDays: number;
  musicTools: MusicToolsSettings;
}) {
  const { db, clock, files, events, jobs, retentionDays } = deps;
  registerTrackStatusUsage();
  defineTracksJobs(jobs, { db, clock, files, events, retentionDays });
  const trackVersions = new VersionsService(db, clock, files, events, jobs);
  const trackComments = new CommentsService(db, clock, files, events);
  const trackMusicTools = new MusicToolsService({
    db,
    clock,
    jobs,
    files,
    events,
    settings: deps.musicTools,
  });
  return {
    tracks: new TracksService(db, clock, files, events),
    trackVersions,
    trackReviews: new ReviewsService(db, clock, trackVersions, events),
    trackTodos: new TodosService(db, clock, events),
    trackComments,
    trackCommentAttachments: new CommentAttachmentsService(db, files, trackComments),
    trackCovers: new TrackCoversService(db, clock, files, events),
    trackMedia: new TrackMediaService(db, files, events),
    trackCollaborators: new CollaboratorsService(db, events),
    trackCollections: new TrackCollectionsService(db),
    trackSearch: new TrackSearchService(db),
    trackAssets: new TrackAssetsService(db, files),
    trackStems: new StemsService(db, clock, files, events),
    trackVersionFiles: new VersionFilesService(db, files, events),
    trackPlays: new PlaysService(db, clock, files),
    trackMusicTools,
    trackCompare: new CompareService({ db, tools: trackMusicTools }),
  };
}
