import type { App } from '../../../app-types.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { NoContent } from '../../../shared/schemas.ts';
import { read, write } from '../route-auth.ts';
import { COMMENTERS, MODERATION, READERS } from '../share-rules.ts';
import { versionArgs, versionRoutes } from '../version-routes.ts';
import {
  Comment,
  CommentListQuery,
  CommentPage,
  CommentParams,
  CommentPatchBody,
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
}
