/**
 * The examples' baton.versions.json is as `baton versions` would write it: a change to an
 * example's structure is recorded in review, with its earlier version kept or its restart meant.
 */
import { join } from 'node:path';
import { expect } from 'chai';
import { runVersions } from '../../server/cli/versions-command.js';
import { LOCKFILE_NAME } from '../../server/cli/versions-lockfile.js';
import { createMemoryVault, servedTools } from '../../machines/index.js';
import { REPO } from '../machines/temp-copies.js';

describe('committed baton.versions.json', () => {
  it('matches the tools served (if not: `npx baton versions`, and keep what changed)', () => {
    const said: string[] = [];
    const tools = servedTools({ publicUrl: 'http://127.0.0.1:3000', vault: createMemoryVault() });
    const io = { out: () => {}, err: (text: string) => void said.push(text) };
    expect(runVersions(tools, 'check', join(REPO, LOCKFILE_NAME), undefined, io), said.join('')).to.equal(0);
  });
});
