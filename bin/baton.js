#!/usr/bin/env node
// From a clone, runs the TypeScript CLI through tsx, so `npx baton …` works without a build; from
// an installed package (no sources, only dist/), runs the compiled CLI.
import { existsSync } from 'node:fs';

const sources = new URL('../server/cli/cli.ts', import.meta.url);
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(sources.href);
} else {
  await import('../dist/server/cli/cli.js');
}
