import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { DATA_DIR_ENTRIES, makePrivateDirectory, PRIVATE_FILE_MODE } from './private-files.ts';

export type Secrets = Readonly<{ tokenSecret: string; urlSigningSecret: string }>;

/**
 * The configured secrets; any that are not configured are generated once and kept in
 * `<DATA_DIR>/secrets.json` (mode 0600), so tokens and signed URLs survive restarts.
 */
export function resolveSecrets(config: Config): Secrets {
  const configured = config.secrets;
  if (configured.tokenSecret && configured.urlSigningSecret) {
    return { tokenSecret: configured.tokenSecret, urlSigningSecret: configured.urlSigningSecret };
  }
  const file = join(config.dataDir, DATA_DIR_ENTRIES.secrets);
  const stored: Partial<Secrets> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const generated = {
    tokenSecret: stored.tokenSecret ?? randomBytes(48).toString('base64url'),
    urlSigningSecret: stored.urlSigningSecret ?? randomBytes(48).toString('base64url'),
  };
  if (
    stored.tokenSecret !== generated.tokenSecret ||
    stored.urlSigningSecret !== generated.urlSigningSecret
  ) {
    makePrivateDirectory(config.dataDir);
    writeFileSync(file, JSON.stringify(generated, null, 2), { mode: PRIVATE_FILE_MODE });
    // The mode above applies only to a new file: one rewritten keeps its own.
    chmodSync(file, PRIVATE_FILE_MODE);
  }
  return {
    tokenSecret: configured.tokenSecret ?? generated.tokenSecret,
    urlSigningSecret: configured.urlSigningSecret ?? generated.urlSigningSecret,
  };
}
