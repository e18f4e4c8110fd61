// Lets Node load the TypeScript sources (the CLI, migrations, scripts): on Node 24 through its own type
// stripping, in transform mode since the sources use parameter properties; on older Node through tsx.
import module from 'node:module';

if (typeof module.registerHooks === 'function' && typeof module.stripTypeScriptTypes === 'function') {
  const { readFileSync } = await import('node:fs');
  const { fileURLToPath } = await import('node:url');
  // The one experimental warning this raises says nothing a user of the command can act on.
  const emitWarning = process.emitWarning;
  process.emitWarning = (warning, ...rest) =>
    String(warning).startsWith('stripTypeScriptTypes')
      ? undefined
      : emitWarning.call(process, warning, ...rest);
  module.registerHooks({
    load(url, context, nextLoad) {
      if (!url.startsWith('file:') || !url.endsWith('.ts') || url.includes('/node_modules/'))
        return nextLoad(url, context);
      const code = readFileSync(fileURLToPath(url), 'utf8');
      const source = module.stripTypeScriptTypes(code, {
        mode: 'transform',
        sourceMap: true,
        sourceUrl: url,
      });
      return { format: 'module', source, shortCircuit: true };
    },
  });
  // Line numbers of errors point into the sources.
  process.setSourceMapsEnabled(true);
} else {
  const { register } = await import('tsx/esm/api');
  register();
}
