import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.ts';

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
  const file = join(config.dataDir, 'secrets.json');
  const stored: Partial<Secrets> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const generated = {
    tokenSecret: stored.tokenSecret ?? randomBytes(48).toString('base64url'),
    urlSigningSecret: stored.urlSigningSecret ?? randomBytes(48).toString('base64url'),
  };
  if (
    stored.tokenSecret !== generated.tokenSecret ||
    stored.urlSigningSecret !== generated.urlSigningSecret
  ) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(generated, null, 2), { mode: 0o600 });
  }
  return {
    tokenSecret: configured.tokenSecret ?? generated.tokenSecret,
    urlSigningSecret: configured.urlSigningSecret ?? generated.urlSigningSecret,
  };
}
