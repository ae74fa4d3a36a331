/**
 * The tools module loaded the way `baton dev` reloads it (a fresh tsx namespace, every file it
 * imports read anew), optionally with one file's text replaced by a candidate's: the candidate is
 * written beside the file (so its relative imports resolve as the file's do) and every import of
 * the file, in this load only, is redirected to it by a resolve hook keyed on the load's tsx
 * namespace. The file itself is never touched, and other loads never see the candidate.
 *
 * The load also reports every file it imported: where the editor looks for a tool's source.
 */
import { randomUUID } from 'node:crypto';
import * as nodeModule from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';
import type { Fixtures } from '../../../machines/conformance/index.js';
import type { ExampleToolOptions } from '../../../machines/index.js';
import { loadToolsModule } from '../tools-module.js';

interface ResolveResult {
  url: string;
  format?: string | null;
}
type ResolveHook = (
  specifier: string,
  context: object,
  nextResolve: (specifier: string, context: object) => ResolveResult,
) => ResolveResult;
/** Node's in-thread module hooks (22.15+; this @types/node predates them). */
const { registerHooks } = nodeModule as unknown as {
  registerHooks: (hooks: { resolve: ResolveHook }) => { deregister(): void };
};

/** What one load gave: the module's exports, and the files (paths) it imported. */
export interface LoadedTools extends Fixtures {
  files: string[];
}

/** Loads the tools module; with `replace`, `replace.file` reads as `replace.candidate` (another file) in this load. */
export async function loadTools(
  modulePath: string,
  options: ExampleToolOptions,
  replace?: { file: string; candidate: string },
): Promise<LoadedTools> {
  const namespace = `baton-editor-${randomUUID()}`;
  const files = new Set<string>();
  const hooks = replace
    ? registerHooks({
        resolve(specifier, context, nextResolve) {
          const resolved = nextResolve(specifier, context);
          if (!resolved.url.startsWith('file:') || !resolved.url.includes(`tsx-namespace=${namespace}`))
            return resolved;
          const url = new URL(resolved.url);
          if (fileURLToPath(url) !== replace.file) return resolved;
          url.pathname = pathToFileURL(replace.candidate).pathname;
          return { ...resolved, url: url.href };
        },
      })
    : undefined;
  const api = register({
    namespace,
    onImport: (url) => {
      if (url.startsWith('file:')) files.add(fileURLToPath(url.split('?')[0]!));
    },
  });
  try {
    const loaded = await loadToolsModule(modulePath, options, (url, parent) => api.import(url, parent));
    return { ...loaded, files: [...files] };
  } finally {
    hooks?.deregister();
    await api.unregister();
  }
}
