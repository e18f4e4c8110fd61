import type { Db } from '../../db/client.ts';
import type { Clock } from '../../shared/clock.ts';
import type { FilesService } from '../files/files.service.ts';
import { TeamBannerService } from './banner.service.ts';
import { TeamMediaService } from './media.service.ts';

/** The team services built on files: the media library and the banner. */
export function createTeamFilesServices(db: Db, clock: Clock, files: FilesService) {
  return { teamMedia: new TeamMediaService(db, files), teamBanner: new TeamBannerService(db, clock, files) };
}
