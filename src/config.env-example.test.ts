import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig, SETTING_NAMES } from './config.ts';

const EXAMPLE = readFileSync(new URL('../.env.example', import.meta.url), 'utf8');
const SETTING_LINE = /^# ?([A-Z][A-Z0-9_]*=.*)$/;

/** `.env.example` with every setting line uncommented, as a `.env` that sets them all would read. */
const uncommented = EXAMPLE.split('\n')
  .map((line) => SETTING_LINE.exec(line)?.[1])
  .filter((line): line is string => line !== undefined)
  .join('\n');
const listed = Object.keys(parseEnv(uncommented));

describe('.env.example', () => {
  it('lists every setting the service reads, and nothing it does not read', () => {
    expect(SETTING_NAMES.filter((name) => !listed.includes(name))).toEqual([]);
    expect(listed.filter((name) => !SETTING_NAMES.includes(name))).toEqual([]);
  });

  it('shows the defaults: set as written, every value gives the configuration of an empty environment', () => {
    const values = parseEnv(uncommented) as Record<string, string>;
    expect(loadConfig(values)).toEqual(loadConfig({}));
  });
});
