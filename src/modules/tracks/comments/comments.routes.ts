import type { App } from '../../../app-types.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { errorResponse, NoContent } from '../../../shared/schemas.ts';
import { read, write } from '../route-auth.ts';
import { COMMENTERS, MODERATION, OWNER_ONLY, READERS, WRITERS } from '../share-rules.ts';
import { Todo } from '../todos/todos.schemas.ts';
import { extension, versionArgs, versionRoutes } from '../version-routes.ts';
import {
  Comment,
  CommentListQuery,
  CommentPage,
  CommentParams,
  CommentPatchBody,
  CommentTodoBody,
  CreateCommentBody,
  ReactionBody,
  ReactionParams,
} from './comments.schemas.ts';

const route = versionRoutes('comments');

/** Comments on a version, with replies and reactions. */
export async function commentsRoutes(app: App) {
  const comments = app.services.trackComments;

  app.get(
    route.path(),
    route.options(read, 'list', {
      summary: 'Comments of a version in timestamp order (general comments first), with reactions',
      description:
        `${READERS} Replies are listed too; each names its parent in parentId. Attachment links are signed ` +
        'and expire. Changes nothing.',
      querystring: CommentListQuery,
      response: { 200: CommentPage },
    }),
    async (request) => comments.list(...versionArgs(request), pageOf(request.query)),
  );

  app.post(
    route.path(),
    route.options(write, 'create', {
      summary: 'Comment on a version, optionally at a time in the audio or as a reply',
      description:
        'atSeconds must not pass the version’s duration when it is known; parentId must be a top-level ' +
        `comment of the same version (400 otherwise). ${COMMENTERS} Sends the \`comment.created\` webhook ` +
        'event to the owning team, and notifies the people the comment mentions (`@[label](user:<id>)`), ' +
        'the author of the parent comment of a reply, and the creator of the track (each once, and only ' +
        'while they are in a team that holds the track).',
      body: CreateCommentBody,
      response: { 201: Comment },
    }),
    async (request, reply) =>
      reply.code(201).send(await comments.create(...versionArgs(request), request.body)),
  );

  app.patch(
    route.path('/:commentId'),
    route.options(write, 'update', {
      summary: 'Edit a comment (its author, an owner or admin of the owning team, or its API key)',
      description:
        `${COMMENTERS} ${MODERATION} A comment of another version is 404; atSeconds past the end of the ` +
        'audio is 400. Sets editedAt, sends the `comment.updated` webhook event with the fields given, and ' +
        'notifies people newly mentioned.',
      params: CommentParams,
      body: CommentPatchBody,
      response: { 200: Comment },
    }),
    async (request) => comments.update(...versionArgs(request), request.params.commentId, request.body),
  );

  app.delete(
    route.path('/:commentId'),
    route.options(write, 'delete', {
      summary:
        'Delete a comment and its replies (its author, an owner or admin of the owning team, or its API key)',
      description:
        `${COMMENTERS} ${MODERATION} Deleting a top-level comment deletes its replies, and the files ` +
        'attached to any of them. A comment of another version is 404. Sends the `comment.deleted` webhook ' +
        'event naming every removed comment.',
      params: CommentParams,
      response: { 204: NoContent },
    }),
    async (request, reply) => {
      await comments.remove(...versionArgs(request), request.params.commentId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    route.path('/:commentId/reactions'),
    route.options(write, 'reactions.add', {
      summary: 'React to a comment with an emoji (idempotent: one reaction per caller and emoji)',
      description:
        `${COMMENTERS} Answers the comment with its reactions; the emoji is stored in Unicode NFC. A comment ` +
        "of another version is 404. A new reaction is recorded in the team's activity as `comment.reacted` " +
        '(no webhook).',
      params: CommentParams,
      body: ReactionBody,
      response: { 200: Comment },
    }),
    async (request) => comments.react(...versionArgs(request), request.params.commentId, request.body.emoji),
  );

  app.delete(
    route.path('/:commentId/reactions/:emoji'),
    route.options(write, 'reactions.remove', {
      summary: 'Remove your reaction with this emoji (idempotent)',
      description:
        `${COMMENTERS} Only the caller's own reaction goes; 204 also when there was none. A comment of ` +
        "another version is 404. A removed reaction is recorded in the team's activity as " +
        '`comment.unreacted` (no webhook).',
      params: ReactionParams,
      response: { 204: NoContent },
    }),
    async (request, reply) => {
      const { commentId, emoji } = request.params;
      await comments.unreact(...versionArgs(request), commentId, emoji);
      return reply.code(204).send(null);
    },
  );

  for (const resolved of [true, false]) {
    app.post(
      route.path(resolved ? '/:commentId/resolve' : '/:commentId/unresolve'),
      route.options(extension(write), resolved ? 'resolve' : 'unresolve', {
        summary: resolved
          ? 'Resolve a comment (it then stays behind when a new version is registered)'
          : 'Open a resolved comment again',
        description: resolved
          ? `${COMMENTERS} Answers the comment with resolvedAt and resolvedBy; a comment resolved already ` +
            'is answered as it is. A comment of another version is 404. Sends the `comment.resolved` ' +
            'webhook event and notifies the comment’s author when someone else resolved it.'
          : `${COMMENTERS} Answers the comment with resolvedAt null; an open comment is answered as it ` +
            'is. A comment of another version is 404. Sends the `comment.unresolved` webhook event.',
        params: CommentParams,
        response: { 200: Comment },
      }),
      async (request) => comments.setResolved(...versionArgs(request), request.params.commentId, resolved),
    );
  }

  app.post(
    route.path('/:commentId/todo'),
    route.options(extension(write), 'todo', {
      summary: 'Turn a comment into a to-do of its version, in one call',
      description:
        `${WRITERS} ${OWNER_ONLY} The to-do takes the comment’s text and keeps the link (its commentId; ` +
        'the comment shows todoId). 409 when the comment has a to-do already; an assignee who is not a ' +
        'member of the owning team is 400; a comment of another version is 404. Recorded in the team’s ' +
        'activity as `todo.created` (no webhook).',
      params: CommentParams,
      body: CommentTodoBody,
      response: { 201: Todo, 409: errorResponse('The comment has a to-do already') },
    }),
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await app.services.trackTodos.fromComment(
            ...versionArgs(request),
            request.params.commentId,
            request.body,
          ),
        ),
  );
}
