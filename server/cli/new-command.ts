/**
 * `baton new <tool>`: writes a tool's machine, its test and its registration, ready to run
 * (`npm test` walks every path of it; `baton dev` serves it). In a project, the tool goes beside
 * the tools module its package.json names (or `--tools <file>`), its test to the project's test/.
 * In this repository (no tools named) the tool goes to machines/tools/ (apart from the examples)
 * and its test to test/machines/tools/. With `--project <dir>` it starts a fresh project that
 * depends on the package (package-specifier.ts). It never overwrites a file.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { ConfigurationError, type ToolDefinition } from '../engine/index.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { PACKAGE_NAME, packageSpecifier } from './package-specifier.js';
import { findToolsSource } from './tools-module.js';
import { lockTools, LOCKFILE_NAME, type Lockfile } from './versions-lockfile.js';
import {
  camelName,
  projectFiles,
  projectToolsIndex,
  registration,
  REGISTRATION_MARKER,
  testSource,
  toolSource,
  type ScaffoldImports,
} from './scaffold-templates.js';

const TOOL_FILE_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** A relative module specifier from `fromDir` to `file` (without extension), as imports write it. */
function specifier(fromDir: string, file: string): string {
  const path = relative(fromDir, file).split(sep).join('/');
  return path.startsWith('.') ? path : `./${path}`;
}

function writeNew(files: Record<string, string>): string[] {
  for (const path of Object.keys(files)) {
    if (existsSync(path)) throw new ConfigurationError(`${path} exists already; baton new never overwrites a file.`);
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return Object.keys(files);
}

/** Adds the tool's import and its entry above the marker line of a tools module. */
export function register(indexPath: string, name: string, from: string): void {
  const text = readFileSync(indexPath, 'utf8');
  const { importLine, entry } = registration(name, from);
  const lines = text.split('\n');
  const marker = lines.findIndex((line) => line.trim() === REGISTRATION_MARKER);
  if (marker < 0) {
    throw new ConfigurationError(
      `${indexPath} has no "${REGISTRATION_MARKER}" line: add \`${importLine}\` and \`${entry}\` to its list yourself.`,
    );
  }
  if (text.includes(importLine)) throw new ConfigurationError(`${indexPath} lists ${camelName(name)}Tool already.`);
  const indent = /^\s*/.exec(lines[marker]!)![0];
  lines.splice(marker, 0, `${indent}${entry}`);
  const lastImport = lines.reduce((last, line, i) => (/^import\b/.test(line) ? i : last), -1);
  lines.splice(lastImport + 1, 0, importLine);
  writeFileSync(indexPath, lines.join('\n'));
}

/** The tool named `name` that the module at `file` exports. */
async function loadTool(file: string, name: string): Promise<ToolDefinition> {
  const module = (await tsImport(pathToFileURL(file).href, import.meta.url)) as Record<string, unknown>;
  const tool = Object.values(module).find((value) => (value as Partial<ToolDefinition> | null)?.name === name);
  if (!tool) throw new ConfigurationError(`${file} exports no tool named "${name}".`);
  return tool as ToolDefinition;
}

/**
 * A new project's baton.versions.json, recording its first tool, so its `npm test` (which runs
 * `baton versions check`) passes from the first run. Before `npm install` the project's imports
 * do not resolve: the tool's source is loaded from a temporary copy importing this package's own
 * authoring API and xstate (the structure is the same whatever the imports).
 */
async function firstLockfile(name: string): Promise<string> {
  const authoring = new URL('../engine/authoring/index.js', import.meta.url).href;
  const source = toolSource(name, { authoring, testing: '', tool: '' }).replace(
    "from 'xstate';",
    `from '${import.meta.resolve('xstate')}';`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'baton-new-'));
  try {
    const file = join(dir, `${name}.ts`);
    writeFileSync(file, source);
    return lockfileText(lockTools([await loadTool(file, name)]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const lockfileText = (lockfile: Lockfile) => `${JSON.stringify(lockfile, null, 2)}\n`;

/**
 * A new tool recorded in the project's baton.versions.json, if it has one: a new tool has no flow
 * in flight, so recording it is always safe, and `npm test` keeps passing. Only the new tool's
 * entry is written; a change to another tool stays for `baton versions` to judge.
 */
async function recordNewTool(root: string, toolFile: string, name: string): Promise<string[]> {
  const file = join(root, LOCKFILE_NAME);
  if (!existsSync(file)) return [];
  let entry;
  try {
    entry = lockTools([await loadTool(toolFile, name)]).tools[name];
  } catch (error) {
    process.stderr.write(
      `${name} is not recorded in ${LOCKFILE_NAME} (${(error as Error).message}): run npx baton versions.\n`,
    );
    return [];
  }
  const locked = JSON.parse(readFileSync(file, 'utf8')) as Lockfile;
  const tools = { ...locked.tools, [name]: entry! };
  locked.tools = Object.fromEntries(
    Object.keys(tools)
      .sort()
      .map((key) => [key, tools[key]!]),
  );
  writeFileSync(file, lockfileText(locked));
  return [file];
}

async function newProject(dir: string, name: string, dependency: string): Promise<string[]> {
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new ConfigurationError(`${dir} is not empty; give baton new --project a new folder.`);
  }
  const project = basename(resolve(dir))
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-');
  const imports: ScaffoldImports = { authoring: 'baton-mcp', testing: 'baton-mcp/testing', tool: `../tools/${name}` };
  const files = Object.fromEntries(
    Object.entries(projectFiles(project, dependency, name)).map(([path, text]) => [join(dir, path), text]),
  );
  return writeNew({
    ...files,
    [join(dir, LOCKFILE_NAME)]: await firstLockfile(name),
    [join(dir, 'tools', `${name}.ts`)]: toolSource(name, imports),
    [join(dir, 'tools', 'index.ts')]: projectToolsIndex(name),
    [join(dir, 'test', `${name}.test.ts`)]: testSource(name, imports),
  });
}

/** A tool next to an existing project's tools module, its test under the project's test/. */
async function newProjectTool(indexPath: string, name: string): Promise<string[]> {
  let root = dirname(indexPath);
  while (!existsSync(join(root, 'package.json')) && dirname(root) !== root) root = dirname(root);
  const toolPath = join(dirname(indexPath), `${name}.ts`);
  const testPath = join(root, 'test', `${name}.test.ts`);
  const imports = {
    authoring: 'baton-mcp',
    testing: 'baton-mcp/testing',
    tool: specifier(dirname(testPath), toolPath.slice(0, -3)),
  };
  const written = writeNew({ [toolPath]: toolSource(name, imports), [testPath]: testSource(name, imports) });
  register(indexPath, name, `./${name}`);
  return [...written, indexPath, ...(await recordNewTool(root, toolPath, name))];
}

/** A tool in this repository (or a copy of its layout under `root`), importing the sources. */
async function newRepositoryTool(root: string, name: string): Promise<string[]> {
  const toolDir = join(root, 'machines', 'tools');
  const indexPath = join(toolDir, 'index.ts');
  if (!existsSync(indexPath))
    throw new ConfigurationError(
      `No tools module is named here: add "baton": { "tools": "tools/index.ts" } to package.json (or pass --tools FILE), or start a project with baton new --project DIR.`,
    );
  const toolPath = join(toolDir, `${name}.ts`);
  const testPath = join(root, 'test', 'machines', 'tools', `${name}.test.ts`);
  const written = writeNew({
    [toolPath]: toolSource(name, {
      authoring: `${specifier(toolDir, join(PACKAGE_ROOT, 'server', 'engine', 'index'))}.js`,
      testing: '',
      tool: '',
    }),
    [testPath]: testSource(name, {
      authoring: '',
      testing: `${specifier(dirname(testPath), join(PACKAGE_ROOT, 'server', 'testing', 'index'))}.js`,
      tool: specifier(dirname(testPath), toolPath.slice(0, -3)),
    }),
  });
  register(indexPath, name, `./${name}`);
  return [...written, indexPath, ...(await recordNewTool(root, toolPath, name))];
}

/**
 * A project on a checkout imports the checkout's compiled entry points (package.json `exports`
 * name dist/), so the checkout must be built first, and again after Baton changes: said, not
 * done here (a build takes a minute, and `baton new` never changes the checkout).
 */
function checkoutBuildStep(checkout: string): string {
  const built = existsSync(join(checkout, 'dist', 'server', 'engine', 'authoring', 'index.js'));
  process.stdout.write(
    built
      ? `The project imports ${checkout}/dist: after changing Baton, run npm run build there.\n`
      : `The project imports ${checkout}/dist, which is not built yet: run npm run build there first.\n`,
  );
  return built ? '' : `npm run build --prefix ${checkout} && `;
}

/** Where a tarball dependency (`file:/abs/baton-mcp-X.tgz`) goes inside the new project. */
function vendoredTarball(specifier: string): { from: string; path: string; specifier: string } | undefined {
  const from = specifier.slice('file:'.length);
  if (!from.endsWith('.tgz') || !existsSync(from)) return undefined;
  const path = join('vendor', basename(from));
  return { from, path, specifier: `file:${path.split(sep).join('/')}` };
}

export interface NewCommandOptions {
  project?: string;
  tools?: string;
  root?: string;
}

export async function newCommand(options: NewCommandOptions, positional: string | undefined): Promise<number> {
  const { project } = options;
  const name = positional ?? (project ? 'hello' : undefined);
  if (!name) throw new ConfigurationError('Name the tool: baton new <tool> (or baton new --project DIR).');
  if (!TOOL_FILE_NAME.test(name)) {
    throw new ConfigurationError(
      `"${name}": a new tool's name is lower-case words joined by dashes (expense-approval).`,
    );
  }
  let written: string[];
  let next: string;
  if (project) {
    const dependency = packageSpecifier();
    const vendored = dependency.origin === 'tarball' ? vendoredTarball(dependency.specifier) : undefined;
    written = await newProject(project, name, vendored?.specifier ?? dependency.specifier);
    if (vendored) {
      // Copied into the project and named relative to it: the project installs the same package
      // after the tarball it came from is moved or deleted, and after the project itself moves.
      mkdirSync(join(project, dirname(vendored.path)), { recursive: true });
      copyFileSync(vendored.from, join(project, vendored.path));
      written.push(join(project, vendored.path));
    }
    process.stdout.write(`${PACKAGE_NAME}: ${vendored?.specifier ?? dependency.specifier} (${dependency.origin})\n`);
    const build = dependency.origin === 'checkout' ? checkoutBuildStep(PACKAGE_ROOT) : '';
    next = `${build}cd ${project} && npm install && npm test && npm run dev`;
  } else {
    // The tools module --tools or package.json names; where none is named, this checkout's layout.
    const source = options.root ? undefined : findToolsSource(options.tools);
    written = source?.module
      ? await newProjectTool(source.module, name)
      : await newRepositoryTool(resolve(options.root ?? PACKAGE_ROOT), name);
    next = 'npm test, then npx baton dev';
  }
  for (const path of written) process.stdout.write(`wrote ${relative(process.cwd(), path) || path}\n`);
  process.stdout.write(`Next: ${next}\n`);
  return 0;
}
