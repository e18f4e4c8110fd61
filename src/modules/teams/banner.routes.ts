import type { App } from '../../app-types.ts';
import { auth, principalOf } from '../../plugins/auth.ts';
import { IdParams, NoContent } from '../../shared/schemas.ts';
import { fileRefusals } from '../files/files.schemas.ts';
import { Banner, BannerUploadBody, BannerUploadUrl, SetBannerBody } from './banner.schemas.ts';

const session = { config: { auth: auth.session } } as const;
const extension = { config: { auth: auth.session, extension: true } } as const;

/** The team banner: ask for an upload URL, PUT the image there, then set it with its fileKey. */
export async function bannerRoutes(app: App) {
  const banner = app.services.teamBanner;

  app.post(
    '/api/v1/teams/:id/banner/upload-url',
    {
      ...session,
      schema: {
        operationId: 'teams.banner.uploadUrl',
        summary: 'A signed URL to upload a banner image to (owner or admin)',
        description:
          'Session tokens only; owners and admins (403 `forbidden` for members). ' +
          'PUT the image to `uploadUrl` with `headers`, then `PUT /api/v1/teams/{id}/banner {fileKey}`. ' +
          'The type comes from the file name (png, jpg, webp, gif, avif; 400 `unsupported_file_type` ' +
          'otherwise). Changes nothing until the banner is set.',
        params: IdParams,
        body: BannerUploadBody,
        response: {
          200: BannerUploadUrl,
          ...fileRefusals,
        },
      },
    },
    async (request) => banner.createUploadUrl(principalOf(request), request.params.id, request.body),
  );

  app.put(
    '/api/v1/teams/:id/banner',
    {
      ...session,
      schema: {
        operationId: 'teams.banner.set',
        summary: 'Set the uploaded image as the team banner (owner or admin); the previous one is deleted',
        description:
          'Session tokens only; owners and admins (403 `forbidden` for members). Registers the upload of ' +
          '`fileKey` (from POST /teams/{id}/banner/upload-url) and makes it the banner; the previous banner and ' +
          'its bytes are deleted. 400 `unsupported_file_type` when the bytes are not the image type, ' +
          '`size_mismatch`; 404 for an unknown key; 409 `upload_missing`, `upload_registering` or ' +
          '`upload_closed`; 413 `payload_too_large` or `quota_exceeded`.',
        params: IdParams,
        body: SetBannerBody,
        response: {
          200: Banner,
          ...fileRefusals,
        },
      },
    },
    async (request) => banner.set(principalOf(request), request.params.id, request.body.fileKey),
  );

  app.get(
    '/api/v1/teams/:id/banner',
    {
      ...extension,
      schema: {
        operationId: 'teams.banner.get',
        summary: 'The team banner with signed links; 404 when the team has none',
        description:
          'Session tokens only; any member of the team. 404 when the team has no banner, or for a team the ' +
          'caller does not belong to. Changes nothing.',
        params: IdParams,
        response: { 200: Banner },
      },
    },
    async (request) => banner.get(principalOf(request), request.params.id),
  );

  app.delete(
    '/api/v1/teams/:id/banner',
    {
      ...extension,
      schema: {
        operationId: 'teams.banner.delete',
        summary: 'Remove the team banner and its bytes (owner or admin)',
        description:
          'Session tokens only; owners and admins (403 `forbidden` for members). The image and its bytes are ' +
          'deleted and its links stop working. 404 when the team has no banner.',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await banner.remove(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
