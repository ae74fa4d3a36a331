import { expect } from 'chai';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

/**
 * XState's internals are used in one place (docs/xstate.md, "The lean path"): the folder
 * server/engine/round/xstate-internals/. Code outside it reaches them only through its index, so
 * what the start-up probe and the version pin guard is all there is to guard.
 */
const ROOT = new URL('../../../', import.meta.url).pathname;
const DOOR = 'server/engine/round/xstate-internals/';
const SCANNED = ['server', 'bench', 'test', 'machines'];

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
      return /\.(ts|js|mjs)$/.test(entry.name) ? [path] : [];
    }),
  );
  return files.flat();
}

describe('the door to XState internals', () => {
  it('is entered from outside only through its index', async () => {
    const files = (await Promise.all(SCANNED.map((dir) => sourceFiles(join(ROOT, dir))))).flat();
    expect(files.length).to.be.greaterThan(100);
    const entries: string[] = [];
    const sideDoors: string[] = [];
    for (const file of files) {
      const path = relative(ROOT, file);
      if (path.startsWith(DOOR)) continue;
      for (const [, target] of (await readFile(file, 'utf8')).matchAll(/from '([^']*xstate-internals[^']*)'/g)) {
        (target!.endsWith('xstate-internals/index.js') ? entries : sideDoors).push(`${path}: ${target}`);
      }
    }
    expect(entries, 'the index is how the round reaches the lean actor').to.not.be.empty;
    expect(sideDoors).to.deep.equal([]);
  });
});
