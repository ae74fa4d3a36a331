/**
 * Which tools a `baton` command serves, documents or calls: one rule for every command.
 *
 * 1. `--tools <file>` names a tools module (relative to the working directory);
 * 2. else the nearest package.json above the working directory names one in
 *    `"baton": { "tools": "tools/index.ts" }` (relative to that package.json);
 * 3. else no tools are named, and the command takes Baton's own examples (machines/index.ts):
 *    that is this repository's case, and said loudly anywhere else.
 *
 * A tools module exports `tools` (an array of tools, or a function of the serving options
 * returning one; `default` works too), and may export `prompts` and `resources`. TypeScript
 * modules load as they are (tsx), with no flag and no build. `fresh` loads the module and
 * everything it imports anew, which is how `baton dev` reloads edited tools in one process.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { ConfigurationError, type ToolDefinition } from '../engine/index.js';
import { PACKAGE_ROOT } from '../package-root.js';
import type { Fixtures } from '../../machines/conformance/index.js';
import type { ExampleToolOptions } from '../../machines/index.js';

export interface ToolsSource {
  /** The tools module, or undefined when none is named (Baton's examples). */
  module: string | undefined;
  /** What named it, for messages: `--tools` or `package.json "baton.tools"`. */
  namedBy: string | undefined;
  /** The project's folder (its package.json's), where `baton docs` writes and `baton dev` watches. */
  root: string;
}

/** The folder of the nearest package.json at or above `from`, if any. */
export function nearestPackageRoot(from: string): string | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

function packageToolsField(root: string): string | undefined {
  const file = join(root, 'package.json');
  let manifest: { baton?: { tools?: unknown } };
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8')) as typeof manifest;
  } catch (error) {
    throw new ConfigurationError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (manifest.baton === undefined) return undefined;
  const tools = manifest.baton?.tools;
  if (typeof tools !== 'string' || tools === '') {
    throw new ConfigurationError(
      `${file}: "baton" must be an object naming your tools module, e.g. "baton": { "tools": "tools/index.ts" }.`,
    );
  }
  return tools;
}

/** Where the tools come from, by the rule above. */
export function findToolsSource(given: string | undefined, cwd = process.cwd()): ToolsSource {
  const root = nearestPackageRoot(cwd) ?? resolve(cwd);
  if (given !== undefined) {
    const module = resolve(cwd, given);
    if (!existsSync(module)) throw new ConfigurationError(`--tools ${given}: no such file (${module}).`);
    return { module, namedBy: '--tools', root: nearestPackageRoot(dirname(module)) ?? root };
  }
  const field = existsSync(join(root, 'package.json')) ? packageToolsField(root) : undefined;
  if (field === undefined) return { module: undefined, namedBy: undefined, root };
  const module = resolve(root, field);
  if (!existsSync(module)) {
    throw new ConfigurationError(
      `${join(root, 'package.json')} names "baton.tools": "${field}", which does not exist.`,
    );
  }
  return { module, namedBy: 'package.json "baton.tools"', root };
}

/** How the source reads in a message: `tools/index.ts` or `the example tools`. */
export function describeSource(source: ToolsSource, cwd = process.cwd()): string {
  return source.module ? relative(cwd, source.module) || source.module : 'the example tools';
}

/**
 * Said when a command falls back to the examples outside this repository: a project whose tools
 * are not named would otherwise silently serve (or document, or call) Baton's examples.
 */
export function examplesNotice(source: ToolsSource): string | undefined {
  if (source.module || resolve(source.root) === resolve(PACKAGE_ROOT)) return undefined;
  return (
    'baton: no tools named here (no "baton": { "tools": "…" } in package.json, no --tools): ' +
    "using Baton's example tools. Name yours in package.json to serve them."
  );
}

type ToolsExport = ToolDefinition[] | ((options: ExampleToolOptions) => ToolDefinition[]);

/** How a module is imported: tsx's `tsImport` unless the diagram editor loads a candidate (editor/edit-check.ts). */
export type ModuleImporter = (url: string, parentUrl: string) => Promise<unknown>;

/** The tools (and any prompts and resources) a tools module exports. */
export async function loadToolsModule(
  path: string,
  options: ExampleToolOptions,
  importer: ModuleImporter = tsImport,
): Promise<Fixtures> {
  // Every load is a fresh tsx namespace: .ts loads without flags, and a reload sees every edit.
  const module = (await importer(pathToFileURL(path).href, import.meta.url)) as Record<string, unknown>;
  const exported = (module.tools ?? module.servedTools ?? module.default) as ToolsExport | undefined;
  const tools = typeof exported === 'function' ? exported(options) : exported;
  if (!Array.isArray(tools)) {
    throw new ConfigurationError(
      `${path} must export \`tools\`: an array of tools (defineTool), or a function returning one.`,
    );
  }
  const list = (name: 'prompts' | 'resources') => {
    const value = module[name];
    if (value !== undefined && !Array.isArray(value))
      throw new ConfigurationError(`${path}: \`${name}\` must be an array.`);
    return (value ?? []) as never[];
  };
  return { tools, prompts: list('prompts'), resources: list('resources') };
}

/** The examples module, as `baton dev` reloads it: the sources in a checkout, else the build. */
export function examplesModulePath(): string {
  const sources = join(PACKAGE_ROOT, 'machines', 'index.ts');
  return existsSync(sources) ? sources : join(PACKAGE_ROOT, 'dist', 'machines', 'index.js');
}
