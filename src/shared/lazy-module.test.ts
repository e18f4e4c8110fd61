import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { lazyImport, lazyRequire } from './lazy-module.ts';

describe('lazy modules', () => {
  it('imports on the first call only, and every call shares that import', async () => {
    let imports = 0;
    const load = lazyImport(() => {
      imports++;
      return import('node:path');
    });
    expect(imports).toBe(0);
    const [first, second] = await Promise.all([load(), load()]);
    expect(imports).toBe(1);
    expect(first).toBe(second);
    expect(first.posix.join('a', 'b')).toBe('a/b');
  });

  it('requires a CommonJS package on the first call, the one a plain require answers', () => {
    const load = lazyRequire<typeof import('ipaddr.js')>('ipaddr.js');
    const ipaddr = load();
    expect(load()).toBe(ipaddr);
    expect(ipaddr).toBe(createRequire(import.meta.url)('ipaddr.js'));
    expect(ipaddr.parse('10.0.0.1').range()).toBe('private');
  });
});
