#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `npx baton …` works from a plain clone without a build.
import { register } from 'tsx/esm/api';

register();
await import('../server/cli/cli.ts');
