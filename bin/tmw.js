#!/usr/bin/env node
// The `tmw` command: loads the TypeScript sources through tsx, as the tests do (`npm start` runs the compiled build).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/tmw.ts');
