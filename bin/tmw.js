#!/usr/bin/env node
// The `tmw` command: loads the TypeScript sources through tsx, like `npm start` does.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/tmw.ts');
