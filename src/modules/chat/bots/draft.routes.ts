import { Type } from '@sinclair/typebox';
import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { Id } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { session } from '../route-auth.ts';
import { DRAFT_KINDS } from './draft.ts';

export const MAX_DRAFT_MESSAGES = 50;

const DraftBody = Type.Object(
  {
    teamId: { ...Id, description: "A team of the caller's (404 otherwise)" },
    kind: StringEnum(DRAFT_KINDS, { description: 'follow_up | thank_you | reminder | introduction' }),
    person: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '\\S',
      description: 'Whom the message is to',
    }),
    network: Type.Optional(Type.String({ maxLength: 50, description: 'instagram, email, ...' })),
    messages: Type.Optional(
      Type.Array(
        Type.Object({
          fromMe: Type.Boolean({ description: 'true: the caller wrote it; false: the person did' }),
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
          { fromMe: true, text: 'Here is the rough mix of Night Drive!' },
          { fromMe: false, text: 'Love it, can you send the stems next week?' },
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
    description: 'A message draft for the caller to edit and send; nothing is stored',
    examples: [
      {
        draft:
          'Hi Maya, following up on our conversation on instagram. You mentioned "Love it, can you send the ' +
          'stems next week?", and I wanted to pick that up. Let me know when you have a moment to talk next steps!',
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
          'Session only (an API key gets 403 `session_required`); any member of `teamId` (404 for a team the ' +
          'caller is not in). Offline templates use the person, network and the last messages (quoting the last thing they ' +
          'said). With a chat-completions model configured (AI_SEARCH_LLM_*) the model writes it, the template ' +
          'answering on timeout or error; provider says which one wrote it. Nothing is stored.',
        body: DraftBody,
        response: { 200: Draft },
      },
    },
    async (request) => drafts.write(principalOf(request), request.body),
  );
}
