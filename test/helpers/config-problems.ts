import { ConfigError, loadConfig } from '../../src/config.ts';

/** What configuration loading says is wrong with `env` (on top of NODE_ENV=test); empty when it loads. */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig({ NODE_ENV: 'test', ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}
