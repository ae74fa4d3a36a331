/**
 * `npm run docs:examples`: copies each region of examples/*.example.ts into the `@example` of the
 * declaration it names (api-examples.ts), and each `region=` block of the docs from the region it
 * names (docs-blocks.ts), then names the files it changed.
 */
import { writeFileSync } from 'node:fs';
import { staleSources, syncedSources } from './api-examples.js';
import { REPO } from './author-api.js';
import { stalePages, syncedPages } from './docs-blocks.js';

const sources = syncedSources();
const pages = syncedPages();
const staleCode = staleSources(sources);
const staleDocs = stalePages(pages);
for (const file of staleCode) writeFileSync(`${REPO}${file}`, sources.get(`${REPO}${file}`)!);
for (const page of staleDocs) writeFileSync(`${REPO}${page}`, pages.get(page)!);
const stale = [...staleCode, ...staleDocs];
console.log(stale.length === 0 ? 'every @example and docs region matches its source' : `updated ${stale.join(', ')}`);
