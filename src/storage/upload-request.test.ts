import { describe, expect, it } from 'vitest';
import type { PutTokenClaims } from './signing.ts';
import { checkUploadRequest } from './upload-request.ts';

const claims: PutTokenClaims = {
  method: 'PUT',
  key: 'teams/1/media/pending/a.wav',
  expiresAt: 2_000_000_000,
  maxBytes: 1000,
  contentType: 'audio/wav',
};

describe('checkUploadRequest', () => {
  it('accepts the bound content type (any case, with parameters) within the size', () => {
    expect(checkUploadRequest(claims, { contentType: 'audio/wav', contentLength: '1000' })).toEqual({
      ok: true,
    });
    expect(checkUploadRequest(claims, { contentType: 'AUDIO/WAV; x=y', contentLength: 1 })).toEqual({
      ok: true,
    });
  });

  it('accepts application/octet-stream, the type the route documents, for any upload URL', () => {
    expect(
      checkUploadRequest(claims, { contentType: 'application/octet-stream', contentLength: '10' }),
    ).toEqual({ ok: true });
  });

  it('accepts a chunked body without Content-Length (the store enforces maxBytes while streaming)', () => {
    expect(checkUploadRequest(claims, { contentType: 'audio/wav', contentLength: undefined })).toEqual({
      ok: true,
    });
  });

  it('refuses another content type with 415', () => {
    expect(checkUploadRequest(claims, { contentType: 'audio/mpeg', contentLength: '10' })).toMatchObject({
      ok: false,
      status: 415,
      code: 'unsupported_media_type',
    });
    expect(checkUploadRequest(claims, { contentType: undefined, contentLength: '10' })).toMatchObject({
      status: 415,
    });
  });

  it('refuses a declared length over the bound maximum with 413, and a nonsense length with 400', () => {
    expect(checkUploadRequest(claims, { contentType: 'audio/wav', contentLength: '1001' })).toMatchObject({
      ok: false,
      status: 413,
      code: 'payload_too_large',
    });
    expect(checkUploadRequest(claims, { contentType: 'audio/wav', contentLength: '-1' })).toMatchObject({
      status: 400,
    });
  });
});
