/**
 * `npm run docs:examples`: copies each region of examples/*.examples.ts into the `@example` of the
 * declaration it names (api-examples.ts), then names the files it changed.
 */
import { writeFileSync } from 'node:fs';
import { staleSources, syncedSources } from './api-examples.js';
import { REPO } from './author-api.js';

const synced = syncedSources();
const stale = staleSources(synced);
for (const file of stale) writeFileSync(`${REPO}${file}`, synced.get(`${REPO}${file}`)!);
console.log(stale.length === 0 ? 'every @example matches its region' : `updated ${stale.join(', ')}`);
