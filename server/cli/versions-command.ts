/**
 * `baton versions`: records each tool's structural version in baton.versions.json (beside
 * package.json), refusing a tool whose structure changed while its previous version is neither
 * kept nor migrated, unless `--restart TOOL` says the restart is meant. `baton versions check`
 * writes nothing and fails (exit 1) when any tool differs from the file, saying what changed and
 * what to do (versions-lockfile.ts). `baton versions keep TOOL` keeps the tool's committed
 * definition as its earlier version (versions-keep.ts). Exit codes: 0 done, 1 a change to deal
 * with, 2 a usage error.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ToolDefinition } from '../engine/index.js';
import { createMemoryVault, servedTools } from '../../machines/index.js';
import { examplesNotice, findToolsSource, loadToolsModule } from './tools-module.js';
import { keepVersion, projectReloader } from './versions-keep.js';
import { compareLockfile, findingMessage, lockTools, LOCKFILE_NAME, type Lockfile } from './versions-lockfile.js';

export interface VersionsCommandOptions {
  tools?: string | undefined;
  /** The lockfile (default: baton.versions.json beside package.json). */
  file?: string | undefined;
  /** Tools whose restart is meant, comma-separated. */
  restart?: string | undefined;
  /** keep: the commit to keep the tool from (default HEAD). */
  ref?: string | undefined;
  /** keep: the file that defines the tool. */
  source?: string | undefined;
}

export interface VersionsOutput {
  out: (text: string) => void;
  err: (text: string) => void;
}

const STDIO: VersionsOutput = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

export async function versionsCommand(
  options: VersionsCommandOptions,
  action: string | undefined,
  io: VersionsOutput = STDIO,
  tool?: string,
): Promise<number> {
  if (action !== undefined && action !== 'check' && action !== 'keep') {
    io.err(
      `baton versions: unknown action "${action}"; use \`baton versions\`, \`baton versions check\` or \`baton versions keep TOOL\`.\n`,
    );
    return 2;
  }
  if (action !== 'keep' && tool !== undefined) {
    io.err(
      `baton versions${action ? ` ${action}` : ''} takes no tool ("${tool}"); did you mean baton versions keep ${tool}?\n`,
    );
    return 2;
  }
  if (action !== 'keep' && (options.ref !== undefined || options.source !== undefined)) {
    io.err('baton versions: --ref and --source go with keep: baton versions keep TOOL [--ref REV] [--source FILE].\n');
    return 2;
  }
  const source = findToolsSource(options.tools);
  const notice = examplesNotice(source);
  if (notice) io.err(`${notice}\n`);
  const serving = { publicUrl: 'http://127.0.0.1:3000', vault: createMemoryVault() };
  const tools: ToolDefinition[] = source.module
    ? (await loadToolsModule(source.module, serving)).tools
    : servedTools(serving);
  const file = options.file ? resolve(options.file) : join(source.root, LOCKFILE_NAME);
  if (action === 'keep') {
    const project = { source, tools, reload: projectReloader(source, serving), lockfile: file };
    return keepVersion(tool, { ref: options.ref, source: options.source }, project, io);
  }
  return runVersions(tools, action, file, options.restart, io);
}

/** The command on tools already loaded: check, or write `file` (what the tests drive). */
export function runVersions(
  tools: ToolDefinition[],
  action: 'check' | undefined,
  file: string,
  restart: string | undefined,
  io: VersionsOutput,
): number {
  const locked = readLockfile(file);
  if (action === 'check') return check(tools, locked, file, io);
  return write(tools, locked, file, restart, io);
}

function readLockfile(file: string): Lockfile | undefined {
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Lockfile;
  return { ...parsed, tools: parsed.tools ?? {} };
}

function check(tools: ToolDefinition[], locked: Lockfile | undefined, file: string, io: VersionsOutput): number {
  if (!locked) {
    io.err(`baton versions check: ${file} does not exist. Write it with \`baton versions\` and commit it.\n`);
    return 1;
  }
  const changed = compareLockfile(tools, locked).filter((finding) => finding.kind !== 'same');
  if (changed.length === 0) {
    io.out(`${tools.length} tools as recorded in ${LOCKFILE_NAME}.\n`);
    return 0;
  }
  io.err(`baton versions check: ${changed.length} tools differ from ${file}:\n`);
  for (const finding of changed) io.err(`  - ${findingMessage(finding)}\n`);
  return 1;
}

function write(
  tools: ToolDefinition[],
  locked: Lockfile | undefined,
  file: string,
  restart: string | undefined,
  io: VersionsOutput,
): number {
  const meant = new Set(
    (restart ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
  const findings = locked ? compareLockfile(tools, locked) : [];
  const refused = findings.filter((finding) => finding.kind === 'restarts' && !meant.has(finding.tool));
  if (refused.length > 0) {
    io.err(`baton versions: nothing written; ${refused.length} tools would restart their flows in flight:\n`);
    for (const finding of refused) io.err(`  - ${findingMessage(finding)}\n`);
    return 1;
  }
  const next = lockTools(tools, locked);
  for (const finding of findings) {
    // The restart is meant: recorded, so the history of a tool says which deploys restarted it.
    if (finding.kind === 'restarts') {
      const entry = next.tools[finding.tool]!;
      entry.restarted = [...(entry.restarted ?? []), finding.from];
    }
  }
  writeFileSync(file, `${JSON.stringify(next, null, 2)}\n`);
  const changed = findings.filter((finding) => finding.kind !== 'same');
  io.out(`Wrote ${file}: ${tools.length} tools${locked ? `, ${changed.length} changed` : ''}.\n`);
  for (const finding of changed) io.out(`  - ${finding.tool}: ${finding.kind}\n`);
  return 0;
}
