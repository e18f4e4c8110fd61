import type { App } from '../../../app-types.ts';
import { fileRefusals } from '../../files/files.schemas.ts';
import { conflictResponse } from '../../teams/conflict-response.ts';
import { acceptEmptyJsonBody } from '../../users/empty-body.ts';
import { write } from '../route-auth.ts';
import { COMMENTERS } from '../share-rules.ts';
import { versionArgs, versionRoutes } from '../version-routes.ts';
import {
  CommentUpload,
  CommentUploadBody,
  CreateCommentWithAttachmentsBody,
} from './comment-attachments.schemas.ts';
import { Comment } from './comments.schemas.ts';

const route = versionRoutes('comments');

/** Comments with files: upload first, then write the comment naming the uploads. */
export async function commentAttachmentsRoutes(app: App) {
  const attachments = app.services.trackCommentAttachments;

  await app.register(async (scope: App) => {
    acceptEmptyJsonBody(scope);
    scope.post(
      route.path('/upload'),
      route.options(write, 'upload', {
        summary: 'An upload URL for a file to attach to a comment not written yet',
        description:
          'PUT the file to `uploadUrl` with `headers`, then name its `fileKey` in `attachments` of ' +
          '`POST .../comments/with-attachments`. The body is optional: without `fileName` the file is named ' +
          '`attachment.<extension>` after `mediaType`; with neither it is a PNG image (a screenshot). ' +
          'Audio, image, video and document types are accepted (400 unsupported_file_type otherwise); the ' +
          `upload expires if no comment uses it. ${COMMENTERS} Changes nothing else and sends no event.`,
        body: CommentUploadBody,
        response: { 200: CommentUpload, ...fileRefusals },
      }),
      async (request) => attachments.createUploadUrl(...versionArgs(request), request.body),
    );
  });

  app.post(
    route.path('/with-attachments'),
    route.options(write, 'createWithAttachments', {
      summary: 'Comment on a version with files attached (uploaded with POST .../comments/upload)',
      description:
        'The comment fields are those of POST .../comments. The comment and its attachments are stored ' +
        'together or not at all: a key that is not an upload of this version is 400 (details name it), ' +
        `an upload whose bytes are missing is 409 upload_missing. ${COMMENTERS} Sends the ` +
        '`comment.created` webhook event (with attachmentCount) and notifies as POST .../comments does.',
      body: CreateCommentWithAttachmentsBody,
      response: {
        201: Comment,
        ...fileRefusals,
        ...conflictResponse('upload_missing (bytes not PUT yet) or upload_closed (expired or used)'),
      },
    }),
    async (request, reply) =>
      reply.code(201).send(await attachments.create(...versionArgs(request), request.body)),
  );
}
