import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { WorldInventory } from './world-inventory.schemas.ts';

/** `GET /api/v1/user/world-inventory`: the app switcher's data in one call. */
export async function worldInventoryRoutes(app: App) {
  const inventory = app.services.worldInventory;

  app.get(
    '/api/v1/user/world-inventory',
    {
      config: { auth: auth.session },
      schema: {
        operationId: 'user.worldInventory',
        summary: 'The signed-in user’s organisations and teams, with their counts, for an app switcher',
        description:
          'Session tokens only (an API key gets 403 `session_required`). Changes nothing. ' +
          'Whole lists (not paged), sorted by name. Organisations are those the user is a member of and those ' +
          'holding one of their teams. Teams the user hid from the switcher are included with ' +
          '`hiddenInSwitcher: true`.',
        response: { 200: WorldInventory },
      },
    },
    async (request) => inventory.get(principalOf(request)),
  );
}
