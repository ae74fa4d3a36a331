/**
 * The Node lines Baton runs on: the maintained LTS lines, 22 and 24 (Node 20 reached its end of
 * life in April 2026). package.json declares them, CI runs on the exact releases .ci/lts-node pins,
 * a scaffolded project declares the same, and no installed package asks for a Node those pins are
 * not, so `npm install` on them prints no EBADENGINE warning.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { projectFiles } from '../../server/cli/scaffold-templates.js';
import { PACKAGE_ROOT } from '../../server/package-root.js';

const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
};
const lock = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
};

/** The releases CI runs on, read from the script that fetches them: `[22]=22.23.5 [24]=24.22.3`. */
function pinnedReleases(): Record<string, string> {
  const script = readFileSync(join(PACKAGE_ROOT, '.ci/lts-node'), 'utf8');
  const line = /declare -A PINNED=\(([^)]*)\)/.exec(script)?.[1] ?? '';
  return Object.fromEntries([...line.matchAll(/\[(\d+)\]=([\d.]+)/g)].map(([, major, version]) => [major, version]));
}

describe('Node lines', () => {
  const pins = pinnedReleases();

  it('declares Node 22 (from 22.15) and 24, not the ended 20', () => {
    const range = manifest.engines.node;
    for (const version of ['22.15.0', '22.23.5', '24.0.0', '24.22.3']) {
      expect(semver.satisfies(version, range), `${version} in ${range}`).to.equal(true);
    }
    for (const version of ['20.19.0', '20.20.2', '22.14.0', '23.11.0']) {
      expect(semver.satisfies(version, range), `${version} in ${range}`).to.equal(false);
    }
  });

  it('pins one release of each declared line for CI, and CI runs on both', () => {
    expect(Object.keys(pins).sort()).to.deep.equal(['22', '24']);
    for (const version of Object.values(pins)) expect(semver.satisfies(version, manifest.engines.node)).to.equal(true);
    const run = readFileSync(join(PACKAGE_ROOT, '.ci/run'), 'utf8');
    expect(run).to.match(/lts-node 22/);
    expect(run).to.match(/lts-node 24/);
  });

  it('installs no package that asks for another Node than the pinned ones (no EBADENGINE)', () => {
    const refusing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const wanted = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!path || !wanted) continue;
      for (const version of Object.values(pins)) {
        if (!semver.satisfies(version, wanted)) refusing.push(`${path} wants node ${wanted}, not ${version}`);
      }
    }
    expect(refusing).to.deep.equal([]);
  });

  it('gives a scaffolded project the same Node lines', () => {
    const files = projectFiles('demo', 'baton-mcp@0.1.0', 'greet');
    const project = JSON.parse(files['package.json']!) as { engines: { node: string } };
    expect(project.engines.node).to.equal(manifest.engines.node);
  });
});
