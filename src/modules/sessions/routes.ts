import type { App } from '../../app-types.ts';
import { calendarRoutes } from './calendar/calendar.routes.ts';
import { canvasRoutes } from './canvas/canvas.routes.ts';
import { sessionFilesRoutes } from './files/session-files.routes.ts';
import { markersRoutes } from './markers/markers.routes.ts';
import { participantsRoutes } from './participants/participants.routes.ts';
import { recordingsRoutes } from './recordings/recordings.routes.ts';
import { sessionsRoutes } from './sessions.routes.ts';
import { songsRoutes } from './songs/songs.routes.ts';

/** Every route of the studio sessions area. */
export async function sessionsModuleRoutes(app: App) {
  await app.register(sessionsRoutes);
  await app.register(participantsRoutes);
  await app.register(calendarRoutes);
  await app.register(sessionFilesRoutes);
  await app.register(songsRoutes);
  await app.register(recordingsRoutes);
  await app.register(markersRoutes);
  await app.register(canvasRoutes);
}
