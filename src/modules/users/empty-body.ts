import type { App } from '../../app-types.ts';

/**
 * For body-less actions (POST with nothing to send): within `scope`, a missing body, or an empty one sent
 * with a JSON content type, reaches validation as `{}`; any other body is parsed and validated as usual.
 */
export function acceptEmptyJsonBody(scope: App): void {
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text === '') return done(null, {});
    return parseJson(request, text, done);
  });
  scope.addHook('preValidation', async (request) => {
    request.body ??= {};
  });
}
