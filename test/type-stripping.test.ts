import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { describe, expect, it } from 'vitest';

// The CLI, migrations and scripts load the sources through Node's own type stripping (bin/typescript.js),
// whose parser is not TypeScript's: a file it cannot read would break `tmw` while the tests still pass.
const strip = (module as { stripTypeScriptTypes?: (code: string, options: object) => string })
  .stripTypeScriptTypes;

describe('the sources under Node type stripping', () => {
  it.runIf(strip !== undefined)('reads every TypeScript file of the project in transform mode', () => {
    const files = execFileSync('git', ['ls-files', '*.ts'], { encoding: 'utf8' }).trim().split('\n');
    const unreadable = files.filter((file) => {
      try {
        strip!(readFileSync(file, 'utf8'), { mode: 'transform' });
        return false;
      } catch {
        return true;
      }
    });
    expect(files.length).toBeGreaterThan(500);
    expect(unreadable).toEqual([]);
  });

  it('runs the CLI from its sources', () => {
    const help = execFileSync(process.execPath, ['bin/tmw.js', '--help'], { encoding: 'utf8' });
    expect(help).toContain('Usage: tmw <command>');
  });
});
