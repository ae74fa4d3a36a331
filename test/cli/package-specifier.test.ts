/**
 * Which dependency `baton new --project` writes: where the running `baton` came from. Installed
 * layouts are laid out by hand here (a package folder under node_modules and the installing
 * project's lockfile); the real tarball case runs end to end in test/package/new-project.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { packageSpecifier } from '../../server/cli/package-specifier.js';
import { BATON_VERSION } from '../../server/version.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

describe('packageSpecifier', () => {
  let prefix = '';
  let installed = '';
  beforeEach(() => {
    prefix = mkdtempSync(join(tmpdir(), 'baton-specifier-'));
    installed = join(prefix, 'node_modules', 'baton-mcp');
    mkdirSync(installed, { recursive: true });
    writeFileSync(join(installed, 'package.json'), JSON.stringify({ name: 'baton-mcp', version: BATON_VERSION }));
  });
  afterEach(() => rmSync(prefix, { recursive: true, force: true }));

  const lockfile = (resolved: string) =>
    writeFileSync(
      join(prefix, 'node_modules', '.package-lock.json'),
      JSON.stringify({ packages: { 'node_modules/baton-mcp': { version: BATON_VERSION, resolved } } }),
    );

  it('run from a checkout: file: to the checkout', () => {
    expect(packageSpecifier(ROOT)).to.deep.equal({ origin: 'checkout', specifier: `file:${ROOT}` });
  });

  it('installed from a tarball: file: to the tarball, made absolute', () => {
    lockfile('file:../packs/baton-mcp-0.1.0.tgz');
    expect(packageSpecifier(installed)).to.deep.equal({
      origin: 'tarball',
      specifier: `file:${join(prefix, '..', 'packs', 'baton-mcp-0.1.0.tgz')}`,
    });
  });

  it('installed from the registry: the version range', () => {
    lockfile(`https://registry.npmjs.org/baton-mcp/-/baton-mcp-${BATON_VERSION}.tgz`);
    expect(packageSpecifier(installed)).to.deep.equal({ origin: 'registry', specifier: `^${BATON_VERSION}` });
  });

  it('with no lockfile to tell (a global install): the version range', () => {
    expect(packageSpecifier(installed).specifier).to.equal(`^${BATON_VERSION}`);
  });
});
