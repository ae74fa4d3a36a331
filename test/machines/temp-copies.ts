/**
 * Tool sources copied or written outside the repository (an OS temp folder), loaded as a project
 * would load them: imports of this repository's modules point at its files, and `xstate` resolves
 * through a link to its node_modules. Nothing in the working tree is touched.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** `text` with its relative imports of repository files (`../../server/…`) made absolute. */
export function withRepoImports(text: string, fromRepoFolder: string): string {
  return text.replace(/from '(\.\.?\/[^']+)'/g, (whole, path: string) =>
    path.startsWith('./') ? whole : `from '${pathToFileURL(join(REPO, fromRepoFolder, path)).href}'`,
  );
}

export interface TempFolder {
  dir: string;
  write(name: string, text: string): string;
  load<T = Record<string, unknown>>(name: string): Promise<T>;
  remove(): void;
}

export function tempFolder(prefix = 'baton-copy-'): TempFolder {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
  // ES modules, as this repository and a `baton new --project` are: without it tsx loads the
  // copies (and what they import) as CommonJS, a second copy of every module.
  writeFileSync(join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
  return {
    dir,
    write: (name, text) => {
      const file = join(dir, name);
      writeFileSync(file, text);
      return file;
    },
    // The test runner loads TypeScript already (tsx); each folder is new, so nothing is cached.
    load: async (name) => (await import(pathToFileURL(join(dir, name)).href)) as never,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
