import type { Config } from '../config.ts';

/** The origin clients reach the service at: PUBLIC_URL, else the address the service listens on. */
export function publicBaseUrl(config: Config): string {
  if (config.publicUrl) return config.publicUrl;
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? 'localhost' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}
