import { Type } from '@sinclair/typebox';
import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { Id } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { SESSION_ONLY, session } from '../route-auth.ts';
import { DRAFT_KINDS } from './draft.ts';

export const MAX_DRAFT_MESSAGES = 50;

const DraftBody = Type.Object(
  {
    teamId: Id,
    kind: StringEnum(DRAFT_KINDS, {
      description: 'follow_up, thank_you, reminder or introduction',
    }),
    person: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    network: Type.Optional(Type.String({ maxLength: 50, description: 'instagram, email, ...' })),
    messages: Type.Optional(
      Type.Array(
        Type.Object({
          fromMe: Type.Boolean({ description: 'true: written by the caller; false: by the person' }),
          text: Type.String({ maxLength: 2_000 }),
        }),
        { maxItems: MAX_DRAFT_MESSAGES, description: 'The conversation so far, oldest first (at most 50)' },
      ),
    ),
  },
  {
    title: 'FollowUpDraftCreate',
    examples: [
      {
        teamId: 7,
        kind: 'follow_up',
        person: 'Maya',
        network: 'instagram',
        messages: [
          { fromMe: true, text: 'Loved your set at the Lantern last night!' },
          { fromMe: false, text: 'Thanks! Send me the Night Drive demo when it is mixed' },
        ],
      },
    ],
  },
);

const Draft = Type.Object(
  {
    draft: Type.String(),
    provider: Type.Union([Type.Literal('template'), Type.Literal('llm')], {
      description: 'Who wrote it: the offline template, or the configured model',
    }),
  },
  {
    title: 'FollowUpDraft',
    examples: [
      {
        draft:
          'Hi Maya, following up on our conversation on instagram. You mentioned "Thanks! Send me the Night ' +
          'Drive demo when it is mixed", and I wanted to pick that up. Let me know when you have a moment to ' +
          'talk next steps!',
        provider: 'template',
      },
    ],
  },
);

/** Drafts of outreach messages. */
export async function followUpDraftRoutes(app: App) {
  const { drafts } = app.services.chat;

  app.post(
    '/api/v1/follow-ups/draft',
    {
      ...session,
      schema: {
        operationId: 'chat.followUps.draft',
        summary: 'Draft a follow-up, thank-you, reminder or introduction message',
        description:
          `${SESSION_ONLY} Members of teamId (404 otherwise). ` +
          'Offline templates use the person, network and the last messages (quoting the last thing they ' +
          'said). With a chat-completions model configured (AI_SEARCH_LLM_*) the model writes it, the template ' +
          'answering on timeout or error; provider says which one wrote it. Nothing is stored.',
        body: DraftBody,
        response: { 200: Draft },
      },
    },
    async (request) => drafts.write(principalOf(request), request.body),
  );
}
