#!/usr/bin/env node
// The installed entry point: the compiled CLI lives in dist/ (built by `npm install` through `prepare`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  process.stderr.write('retrace: the compiled CLI is missing; run `npm run build` (or `npm install`) first.\n');
  process.exit(2);
}
await import(main.href);
