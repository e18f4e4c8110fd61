import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { NoContent } from '../../../shared/schemas.ts';
import { read, write } from '../route-auth.ts';
import { MODERATION } from '../share-rules.ts';
import { VersionParams } from '../versions/versions.schemas.ts';
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

const BASE = '/api/v1/tracks/:id/versions/:versionId/comments';

/** Comments on a version, with replies and reactions. */
export async function commentsRoutes(app: App) {
  const comments = app.services.trackComments;

  app.get(
    BASE,
    {
      ...read,
      schema: {
        operationId: 'tracks.versions.comments.list',
        summary: 'Comments of a version in timestamp order (general comments first), with reactions',
        description: 'Replies are listed too; each names its parent in parentId.',
        params: VersionParams,
        querystring: CommentListQuery,
        response: { 200: CommentPage },
      },
    },
    async (request) =>
      comments.list(principalOf(request), request.params.id, request.params.versionId, pageOf(request.query)),
  );

  app.post(
    BASE,
    {
      ...write,
      schema: {
        operationId: 'tracks.versions.comments.create',
        summary: 'Comment on a version, optionally at a time in the audio or as a reply',
        description:
          'atSeconds must not pass the version’s duration when it is known; parentId must be a top-level ' +
          'comment of the same version (400 otherwise). Members of a team the track is shared with comment ' +
          'too.',
        params: VersionParams,
        body: CreateCommentBody,
        response: { 201: Comment },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await comments.create(
            principalOf(request),
            request.params.id,
            request.params.versionId,
            request.body,
          ),
        ),
  );

  app.patch(
    `${BASE}/:commentId`,
    {
      ...write,
      schema: {
        operationId: 'tracks.versions.comments.update',
        summary: 'Edit a comment (its author, an owner or admin of the owning team, or its API key)',
        description: MODERATION,
        params: CommentParams,
        body: CommentPatchBody,
        response: { 200: Comment },
      },
    },
    async (request) => {
      const { id, versionId, commentId } = request.params;
      return comments.update(principalOf(request), id, versionId, commentId, request.body);
    },
  );

  app.delete(
    `${BASE}/:commentId`,
    {
      ...write,
      schema: {
        operationId: 'tracks.versions.comments.delete',
        summary:
          'Delete a comment and its replies (its author, an owner or admin of the owning team, or its API key)',
        description: MODERATION,
        params: CommentParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { id, versionId, commentId } = request.params;
      await comments.remove(principalOf(request), id, versionId, commentId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${BASE}/:commentId/reactions`,
    {
      ...write,
      schema: {
        operationId: 'tracks.versions.comments.reactions.add',
        summary: 'React to a comment with an emoji (idempotent: one reaction per caller and emoji)',
        params: CommentParams,
        body: ReactionBody,
        response: { 200: Comment },
      },
    },
    async (request) => {
      const { id, versionId, commentId } = request.params;
      return comments.react(principalOf(request), id, versionId, commentId, request.body.emoji);
    },
  );

  app.delete(
    `${BASE}/:commentId/reactions/:emoji`,
    {
      ...write,
      schema: {
        operationId: 'tracks.versions.comments.reactions.remove',
        summary: 'Remove your reaction with this emoji (idempotent)',
        params: ReactionParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { id, versionId, commentId, emoji } = request.params;
      await comments.unreact(principalOf(request), id, versionId, commentId, emoji);
      return reply.code(204).send(null);
    },
  );
}
