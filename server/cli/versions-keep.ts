/**
 * `baton versions keep TOOL`: keeps the tool's committed definition as its earlier version, in one
 * command. It finds the file that defines the tool, copies that file as it is at `--ref` (HEAD by
 * default, `git show`) beside it as `<file>.v<N>.ts`, and lists the copy's machine in the tool's
 * `versions` (an import and one entry, written into the tool's file), so the flows and tasks the
 * committed version started finish on it after the deploy (docs/deploy.md). Where the edit is not
 * safe to make (no single `name:` line, a `versions` that is not a plain list), it prints the two
 * lines to add instead. It records nothing: `baton versions` does, once the author has looked.
 * Exit codes: 0 kept and registered, 1 nothing kept or the edit left to the author, 2 a usage error.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { structuralVersion, type ToolDefinition } from '../engine/index.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { camelName } from './scaffold-templates.js';
import { examplesModulePath, loadToolsModule, type ToolsSource } from './tools-module.js';
import { describeChange, lockTools, LOCKFILE_NAME, type Lockfile } from './versions-lockfile.js';
import type { VersionsOutput } from './versions-command.js';

export interface KeepOptions {
  /** The commit to keep the tool from (default HEAD). */
  ref?: string | undefined;
  /** The file that defines the tool, when it cannot be found by its `name:` line. */
  source?: string | undefined;
}

/** What keep needs of the project: its tools as served, and how to load them again after the edit. */
export interface KeepProject {
  source: ToolsSource;
  tools: ToolDefinition[];
  reload: () => Promise<ToolDefinition[]>;
  /** The lockfile, to say which version it records. */
  lockfile: string;
}

class KeepRefused extends Error {
  constructor(
    message: string,
    readonly code: 1 | 2,
  ) {
    super(message);
  }
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const nameLine = (tool: string) => new RegExp(`\\bname:\\s*(['"\`])${escape(tool)}\\1`);
const KEPT_FILE = /\.v\d+\.ts$/;

/** The project's tools loaded afresh from their module (the examples' module in this checkout). */
export function projectReloader(source: ToolsSource, serving: Parameters<typeof loadToolsModule>[1]) {
  return async () => (await loadToolsModule(source.module ?? examplesModulePath(), serving)).tools;
}

export async function keepVersion(
  tool: string | undefined,
  options: KeepOptions,
  project: KeepProject,
  io: VersionsOutput,
): Promise<number> {
  try {
    return await keep(tool, options, project, io);
  } catch (error) {
    if (!(error instanceof KeepRefused)) throw error;
    io.err(`baton versions keep: ${error.message}\n`);
    return error.code;
  }
}

async function keep(name: string | undefined, options: KeepOptions, project: KeepProject, io: VersionsOutput) {
  if (!name) throw new KeepRefused('name the tool: baton versions keep TOOL.', 2);
  const tool = project.tools.find((candidate) => candidate.name === name);
  if (!tool) {
    const served = project.tools.map((candidate) => candidate.name).join(', ');
    throw new KeepRefused(`no tool named "${name}" is served here (${served}).`, 2);
  }
  const file = options.source ? resolve(options.source) : findToolFile(project.source, name);
  if (!existsSync(file)) throw new KeepRefused(`--source ${options.source}: no such file.`, 2);
  const ref = options.ref ?? 'HEAD';
  const committed = gitShow(file, ref);

  const dir = dirname(file);
  const base = basename(file, '.ts');
  const taken = readdirSync(dir)
    .map((entry) => new RegExp(`^${escape(base)}\\.v(\\d+)\\.ts$`).exec(entry)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
  const n = Math.max(0, ...taken) + 1;
  const label = `v${n}`;
  const keptFile = join(dir, `${base}.${label}.ts`);
  const shown = (path: string) => {
    const near = relative(process.cwd(), path);
    return near && !near.startsWith('..') ? near : path;
  };

  writeFileSync(keptFile, keptHeader(name, label, ref, shown(file)) + committed);
  let exportName: string;
  let kept: ToolDefinition;
  try {
    ({ exportName, kept } = await keptTool(keptFile, name));
  } catch (error) {
    rmSync(keptFile, { force: true });
    throw error;
  }
  const from = structuralVersion(kept.machine);
  const current = structuralVersion(tool.machine);
  const already = lockTools([tool]).tools[name]?.kept?.[from];
  if (from === current || already !== undefined) {
    rmSync(keptFile, { force: true });
    throw new KeepRefused(
      from === current
        ? `${name} at ${ref} has the structure the working tree serves (version ${current}): nothing to keep. ` +
            'Keep a version after changing its structure and before committing; if the change is committed ' +
            'already, name the commit before it: --ref HEAD~1.'
        : `${name}'s version ${from} (${ref}) is kept already, as ${already}.`,
      1,
    );
  }
  // What the committed version's flows would meet without the copy: the change, told as states.
  const describe = describeChange(lockTools([{ ...kept, name }]).tools[name]!, lockTools([tool]).tools[name]!);
  io.out(`${name} changed since ${ref} (version ${from} -> ${current}): ${describe}.\n`);
  const recorded = readLockfile(project.lockfile)?.tools[name]?.version;
  if (recorded !== undefined && recorded !== from && recorded !== current) {
    io.err(
      `warning: ${LOCKFILE_NAME} records ${name} as version ${recorded}, not ${from}: the version in flight may be ` +
        `that one. Keep it from the commit that served it: baton versions keep ${name} --ref <commit>.\n`,
    );
  }

  const alias = `${camelName(base.replace(/[^A-Za-z0-9-]/g, '-'))}${label.toUpperCase()}Tool`;
  const importLine = `import { ${exportName} as ${alias} } from './${base}.${label}.js';`;
  const entry = `{ machine: ${alias}.machine, label: '${label}' }`;
  const original = readFileSync(file, 'utf8');
  const edited = registerKept(original, name, alias, importLine, entry);
  if (edited !== undefined) {
    writeFileSync(file, edited);
    const now = await project.reload().catch(() => undefined);
    const reloaded = now?.find((candidate) => candidate.name === name);
    if (reloaded && lockTools([reloaded]).tools[name]?.kept?.[from] !== undefined) {
      io.out(
        `Kept ${ref}:${gitPath(file)} as ${shown(keptFile)} (${label}) and listed it in ${shown(file)}:\n` +
          `  ${importLine}\n  versions: [${entry}, …]\n` +
          `Flows and tasks version ${from} started finish on ${label} instead of restarting.\n` +
          `Next: npx baton versions (records it in ${LOCKFILE_NAME}), then commit ${basename(keptFile)} and ` +
          `${basename(file)}. Delete ${basename(keptFile)} once no state ${label} sealed can be presented ` +
          '(the state TTL; for tasks, their lifetime).\n',
      );
      return 0;
    }
    writeFileSync(file, original);
  }
  io.err(
    `Kept ${ref}:${gitPath(file)} as ${shown(keptFile)} (${label}), but ${shown(file)} was left as it is (no single \`name: '${name}'\` line to add \`versions\` after, or a ` +
      '`versions` that is not a plain list). Add these two lines yourself, then run npx baton versions:\n' +
      `  ${importLine}\n  versions: [${entry}],   // in defineTool({ name: '${name}', … })\n`,
  );
  return 1;
}

/** The file under the tools module's folder (or machines/ here) that defines `name`, not a kept copy. */
function findToolFile(source: ToolsSource, name: string): string {
  const root = source.module ? dirname(source.module) : join(PACKAGE_ROOT, 'machines');
  const pattern = nameLine(name);
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      if (entry === 'node_modules' || entry.startsWith('.')) continue;
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.[cm]?ts$/.test(entry) && !KEPT_FILE.test(entry) && !/\.(test|d)\.ts$/.test(entry)) {
        if (pattern.test(readFileSync(path, 'utf8'))) found.push(path);
      }
    }
  };
  walk(root);
  if (found.length === 1) return found[0]!;
  throw new KeepRefused(
    found.length === 0
      ? `no file under ${root} has a \`name: '${name}'\` line; name the tool's file: --source FILE.`
      : `${found.length} files name "${name}" (${found.map((path) => relative(process.cwd(), path)).join(', ')}); ` +
          "name the tool's file: --source FILE.",
    2,
  );
}

function git(cwd: string, args: string[]): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? (error as Error).message).trim();
    throw new KeepRefused(`git ${args.join(' ')}: ${stderr}`, 2);
  }
}

/** The file's path inside its git repository, with forward slashes. */
function gitPath(file: string): string {
  const top = git(dirname(file), ['rev-parse', '--show-toplevel']).trim();
  return relative(top, file).split(sep).join('/');
}

function gitShow(file: string, ref: string): string {
  const path = gitPath(file);
  const top = git(dirname(file), ['rev-parse', '--show-toplevel']).trim();
  return git(top, ['show', `${ref}:${path}`]);
}

function keptHeader(tool: string, label: string, ref: string, file: string): string {
  return (
    `// ${tool}, ${label}: ${file} as committed at ${ref}, kept by \`baton versions keep ${tool}\` so the flows\n` +
    `// and tasks it started finish on it (docs/deploy.md). Leave it unchanged; delete it, and its entry in\n` +
    `// \`versions\`, once none can still be presented (the state TTL; for tasks, their lifetime).\n`
  );
}

/** The kept copy's exported tool named `name`, loaded as served. */
async function keptTool(file: string, name: string): Promise<{ exportName: string; kept: ToolDefinition }> {
  let module: Record<string, unknown>;
  try {
    module = (await tsImport(pathToFileURL(file).href, import.meta.url)) as Record<string, unknown>;
  } catch (error) {
    throw new KeepRefused(`the kept copy ${file} does not load: ${(error as Error).message}`, 1);
  }
  for (const [exportName, value] of Object.entries(module)) {
    const candidate = value as Partial<ToolDefinition> | null;
    if (candidate && typeof candidate === 'object' && candidate.name === name && candidate.machine) {
      return { exportName, kept: candidate as ToolDefinition };
    }
  }
  throw new KeepRefused(
    `the committed file exports no tool named "${name}" (defineTool, exported): nothing kept. ` +
      'If the tool moved, name its earlier file: --source FILE.',
    1,
  );
}

function readLockfile(file: string): Lockfile | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Lockfile) : undefined;
}

/** The end of the last import statement: where an import line goes. */
function afterImports(lines: string[]): number {
  let end = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!/^import\b/.test(lines[i]!)) continue;
    let j = i;
    while (j < lines.length && !/(from\s+|^import\s+)(['"])[^'"]+\2;?\s*$/.test(lines[j]!)) j++;
    if (j === lines.length) return -1;
    end = j + 1;
    i = j;
  }
  return end;
}

/**
 * The tool's source with the kept version imported and listed first in `versions`, or undefined
 * where that edit cannot be made safely: one `name:` line for the tool, and at most one
 * `versions` property, written as a list.
 */
export function registerKept(
  text: string,
  name: string,
  alias: string,
  importLine: string,
  entry: string,
): string | undefined {
  if (new RegExp(`\\b${escape(alias)}\\b`).test(text)) return undefined;
  const lines = text.split('\n');
  const named = lines.flatMap((line, i) => (nameLine(name).test(line) ? [i] : []));
  const versions = lines.flatMap((line, i) => (/\bversions\b\s*[:,]/.test(line) ? [i] : []));
  if (named.length !== 1 || versions.length > 1) return undefined;
  if (versions.length === 1) {
    const i = versions[0]!;
    if (!/\bversions:\s*\[/.test(lines[i]!)) return undefined;
    lines[i] = lines[i]!.replace(/\bversions:\s*\[\s*/, (open) =>
      /\[\s*$/.test(lines[i]!) ? `${open}\n${indentOf(lines[i]!)}  ${entry},` : `versions: [${entry}, `,
    );
  } else {
    const i = named[0]!;
    if (!/,\s*(\/\/.*)?$/.test(lines[i]!)) return undefined;
    lines.splice(i + 1, 0, `${indentOf(lines[i]!)}versions: [${entry}],`);
  }
  const at = afterImports(lines);
  if (at < 0) return undefined;
  lines.splice(at, 0, importLine);
  return lines.join('\n');
}

const indentOf = (line: string) => /^\s*/.exec(line)![0];
