#!/usr/bin/env node
// The `tmw` command runs the TypeScript sources, as the tests do (`npm start` runs the compiled build).
import './typescript.js';

await import('../src/cli/tmw.ts');
