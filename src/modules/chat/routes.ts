import type { App } from '../../app-types.ts';
import { chatBotsRoutes } from './bots/bots.routes.ts';
import { followUpDraftRoutes } from './bots/draft.routes.ts';
import { chatComposerRoutes } from './composer/composer.routes.ts';
import { chatEventsRoutes } from './events/events.routes.ts';
import { chatMessagesRoutes } from './messages/messages.routes.ts';
import { chatThreadStateRoutes } from './thread-state/state.routes.ts';
import { chatThreadMembersRoutes } from './threads/thread-members.routes.ts';
import { chatThreadsRoutes } from './threads/threads.routes.ts';
import { chatVoiceRoutes } from './voice/voice.routes.ts';

/** Every route of the chat area (all session-only). */
export async function chatModuleRoutes(app: App) {
  await app.register(chatThreadsRoutes);
  await app.register(chatThreadMembersRoutes);
  await app.register(chatMessagesRoutes);
  await app.register(chatThreadStateRoutes);
  await app.register(chatComposerRoutes);
  await app.register(chatEventsRoutes);
  await app.register(chatVoiceRoutes);
  await app.register(chatBotsRoutes);
  await app.register(followUpDraftRoutes);
}
