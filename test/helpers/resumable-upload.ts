import * as tus from 'tus-js-client';
import { expect } from 'vitest';

const MiB = 1024 * 1024;

/** Previous uploads kept in memory, as a browser keeps them in localStorage. */
class MemoryUrlStorage {
  readonly uploads = new Map<string, tus.PreviousUpload & { fingerprint: string }>();
  async findAllUploads() {
    return [...this.uploads.values()];
  }
  async findUploadsByFingerprint(fingerprint: string) {
    return [...this.uploads.values()].filter((u) => u.fingerprint === fingerprint);
  }
  async removeUpload(key: string) {
    this.uploads.delete(key);
  }
  async addUpload(fingerprint: string, upload: tus.PreviousUpload) {
    const key = `upload-${this.uploads.size + 1}`;
    this.uploads.set(key, { ...upload, fingerprint, urlStorageKey: key });
    return key;
  }
}

/** Sends `bytes` with tus-js-client, aborting it at the given fractions and resuming each time. */
export async function sendInterrupted(
  endpoint: string,
  resumable: { url: string; token: string },
  bytes: Buffer,
  stops: number[],
) {
  const urlStorage = new MemoryUrlStorage();
  let resumes = 0;
  let uploadUrl: string | null = null;
  for (let attempt = 0; attempt <= stops.length; attempt++) {
    const stopAt = stops[attempt];
    await new Promise<void>((resolve, reject) => {
      const upload: tus.Upload = new tus.Upload(bytes, {
        endpoint,
        metadata: { token: resumable.token, filetype: 'audio/wav', filename: 'stem.wav' },
        chunkSize: 16 * MiB,
        retryDelays: null,
        urlStorage,
        fingerprint: async () => `stem-${resumable.token.slice(-12)}`,
        storeFingerprintForResuming: true,
        onProgress: (sent, total) => {
          if (stopAt !== undefined && sent >= total * stopAt) {
            uploadUrl = upload.url;
            upload.abort().then(resolve, reject);
          }
        },
        onSuccess: () => resolve(),
        onError: reject,
      });
      const start = async () => {
        if (attempt === 1 && uploadUrl) {
          // The first resume names the upload's URL; the second finds it among the previous uploads.
          upload.options.uploadUrl = uploadUrl;
          resumes++;
        } else if (attempt === 2) {
          const previous = await upload.findPreviousUploads();
          expect(new Set(previous.map((p) => p.uploadUrl))).toEqual(new Set([uploadUrl]));
          upload.resumeFromPreviousUpload(previous[0]!);
          resumes++;
        }
        upload.start();
      };
      start().catch(reject);
    });
    if (stopAt !== undefined) {
      const head = await fetch(uploadUrl!, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } });
      expect(head.status).toBe(200);
      const offset = Number(head.headers.get('upload-offset'));
      expect(offset).toBeGreaterThan(0);
      expect(offset).toBeLessThan(bytes.length);
    }
  }
  return resumes;
}
