/**
 * A tools module: the file that lists what a project serves (`--tools <file>`). It exports
 * `tools`, an array of tools or a function of the serving options returning one (or the same as
 * its default export). Without `--tools`, the repository's own list is used: the examples and
 * machines/tools/ (machines/index.ts, `servedTools`). `fresh` loads the module and everything it
 * imports anew (tsx namespaces), which is how `baton dev` reloads edited tools in one process.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { ConfigurationError, type ToolDefinition } from '../engine/index.js';
import { PACKAGE_ROOT } from '../package-root.js';
import type { ExampleToolOptions } from '../../machines/index.js';

export const DEFAULT_TOOLS_MODULE = resolve(PACKAGE_ROOT, 'machines/index.ts');

type ToolsExport = ToolDefinition[] | ((options: ExampleToolOptions) => ToolDefinition[]);

/** The tools module named by `--tools <file>` in `args`, else the repository's own list. */
export function toolsModulePath(args: string[], cwd = process.cwd()): string {
  const at = args.indexOf('--tools');
  if (at < 0) return DEFAULT_TOOLS_MODULE;
  const given = args[at + 1];
  if (!given) throw new ConfigurationError('--tools needs a file: --tools tools/index.ts');
  const path = resolve(cwd, given);
  if (!existsSync(path)) throw new ConfigurationError(`--tools ${given}: no such file (${path}).`);
  return path;
}

export async function loadTools(path: string, options: ExampleToolOptions, fresh: boolean): Promise<ToolDefinition[]> {
  const module = (
    fresh ? await tsImport(pathToFileURL(path).href, import.meta.url) : await import(pathToFileURL(path).href)
  ) as Record<string, unknown>;
  const exported = (module.tools ?? module.servedTools ?? module.default) as ToolsExport | undefined;
  const tools = typeof exported === 'function' ? exported(options) : exported;
  if (!Array.isArray(tools)) {
    throw new ConfigurationError(
      `${path} must export \`tools\`: an array of tools (defineTool), or a function returning one.`,
    );
  }
  return tools;
}

/** The tools of the module `--tools` names, loaded once (`baton serve`). */
export function toolsFrom(args: string[], options: ExampleToolOptions): Promise<ToolDefinition[]> {
  return loadTools(toolsModulePath(args), options, false);
}
