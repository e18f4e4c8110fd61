import type { App } from '../../app-types.ts';
import { contactsRoutes } from './contacts.routes.ts';
import { contactGroupsRoutes } from './groups/groups.routes.ts';
import { contactLookupsRoutes } from './lookups.routes.ts';
import { contactPeopleRoutes } from './people/people.routes.ts';
import { contactTimelineRoutes } from './timeline/timeline.routes.ts';

/** Every route of the contacts area. */
export async function contactsModuleRoutes(app: App) {
  await app.register(contactsRoutes);
  await app.register(contactLookupsRoutes);
  await app.register(contactGroupsRoutes);
  await app.register(contactTimelineRoutes);
  await app.register(contactPeopleRoutes);
}
