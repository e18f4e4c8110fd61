import type { App } from '../../app-types.ts';
import { campFilesRoutes } from './camps/camp-files.routes.ts';
import { campsRoutes } from './camps/camps.routes.ts';
import { listeningRoutes } from './camps/listening.routes.ts';
import { organisationInvitationsRoutes } from './invitations/invitations.routes.ts';
import { organisationMembersRoutes } from './members.routes.ts';
import { organisationsRoutes } from './organisations.routes.ts';
import { placesRoutes } from './places/places.routes.ts';
import { rollupsRoutes } from './rollups/rollups.routes.ts';
import { scheduleRoutes } from './schedule/schedule.routes.ts';

/** Every route of the organisations area: organisations, their teams, members, places, camps and roll-ups. */
export async function organisationsModuleRoutes(app: App) {
  await app.register(organisationsRoutes);
  await app.register(organisationMembersRoutes);
  await app.register(organisationInvitationsRoutes);
  await app.register(placesRoutes);
  await app.register(campsRoutes);
  await app.register(listeningRoutes);
  await app.register(campFilesRoutes);
  await app.register(rollupsRoutes);
  await app.register(scheduleRoutes);
}
