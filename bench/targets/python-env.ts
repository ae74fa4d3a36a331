/**
 * The Python the Python targets run on: a virtual environment with the pinned packages, made by
 * the bench the first time it is needed and kept in a cache directory outside the repository
 * (`$XDG_CACHE_HOME/baton-bench/`, or `BENCH_PYTHON_VENV`), named after what it holds. pip is
 * pointed at the machine's local indexes only: it must never wait on a public index it cannot
 * reach. When Python or the packages are missing, the bench skips the Python targets with one line
 * that says why.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';

/**
 * What the Python targets are measured with: the two libraries, and the speedups uvicorn's docs
 * recommend for production (`uvicorn[standard]`: uvloop for the event loop, httptools for HTTP
 * parsing; about 2-13% off their CPU per request), so the peers run as well deployed as Baton.
 */
export const PYTHON_PACKAGES = ['mcp==2.3.0', 'fastmcp==4.0.10', 'uvloop==0.23.0', 'httptools==0.8.0'] as const;

/** The local indexes that hold them (`pip config list` names them); never a network index. */
export const PIP_INDEX_URL = 'file:///opt/pypi/simple';
export const PIP_EXTRA_INDEX_URLS = ['file:///opt/pypi-more/simple'] as const;

/** The oldest Python the packages support. */
const MINIMUM_PYTHON: [number, number] = [3, 10];
const MARKER = 'baton-bench-packages.txt';

export type PythonEnv = { python: string; version: string; venv: string; created: boolean } | { skipped: string };

/** The pip command line that installs the packages into the environment at `venv`. */
export function pipInstallArgs(packages: readonly string[] = PYTHON_PACKAGES): string[] {
  return [
    '-m',
    'pip',
    'install',
    '--no-input',
    '--disable-pip-version-check',
    '--retries',
    '0',
    '--timeout',
    '15',
    '--index-url',
    PIP_INDEX_URL,
    ...PIP_EXTRA_INDEX_URLS.flatMap((url) => ['--extra-index-url', url]),
    ...packages,
  ];
}

/** The environment's directory: one per set of packages, so a change of pins makes a new one. */
export function venvDirectory(env: NodeJS.ProcessEnv = process.env, packages: readonly string[] = PYTHON_PACKAGES) {
  if (env.BENCH_PYTHON_VENV) return env.BENCH_PYTHON_VENV;
  const cache = env.XDG_CACHE_HOME || join(os.homedir(), '.cache');
  const digest = createHash('sha256').update(packages.join('\n')).digest('hex').slice(0, 12);
  return join(cache, 'baton-bench', `python-${digest}`);
}

/** The last non-empty line of a command's output: what went wrong, in one line. */
export function lastLine(text: string): string {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.at(-1) ?? '(no output)';
}

function run(command: string, args: string[], timeoutMs: number) {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: timeoutMs });
  return { ok: result.status === 0, output: `${result.stdout ?? ''}\n${result.stderr ?? ''}`, error: result.error };
}

function pythonOnPath(): { python: string } | { skipped: string } {
  const python = process.env.BENCH_PYTHON ?? 'python3';
  const probe = run(python, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], 30_000);
  if (probe.error || !probe.ok) return { skipped: `${python} is not installed` };
  const [major, minor] = lastLine(probe.output).split('.').map(Number) as [number, number];
  if (major < MINIMUM_PYTHON[0] || (major === MINIMUM_PYTHON[0] && minor < MINIMUM_PYTHON[1])) {
    return { skipped: `${python} is ${major}.${minor}; the packages need ${MINIMUM_PYTHON.join('.')} or later` };
  }
  return { python };
}

/**
 * The environment, made now if it is not there yet (a few tens of seconds). Two benches making it
 * at once each build their own and the first to finish keeps its copy: the directory appears whole
 * or not at all (a rename).
 */
export function preparePythonEnv(log: (line: string) => void = () => {}): PythonEnv {
  const venv = venvDirectory();
  const python = join(venv, 'bin', 'python');
  const wanted = PYTHON_PACKAGES.join('\n');
  const isReady = () => {
    try {
      return existsSync(python) && readFileSync(join(venv, MARKER), 'utf8') === wanted;
    } catch {
      return false; // No marker: made by hand or half removed.
    }
  };
  const version = () => lastLine(run(python, ['--version'], 30_000).output);
  if (isReady()) return { python, version: version(), venv, created: false };
  const base = pythonOnPath();
  if ('skipped' in base) return base;
  log(`making the Python environment for ${PYTHON_PACKAGES.join(', ')} in ${venv} (local indexes only)…`);
  const building = `${venv}.tmp-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(dirname(venv), { recursive: true });
  try {
    const made = run(base.python, ['-m', 'venv', building], 120_000);
    if (!made.ok) return { skipped: `python -m venv failed: ${lastLine(made.output)}` };
    const installed = run(join(building, 'bin', 'python'), pipInstallArgs(), 600_000);
    if (!installed.ok) {
      return { skipped: `pip could not install ${PYTHON_PACKAGES.join(', ')}: ${lastLine(installed.output)}` };
    }
    writeFileSync(join(building, MARKER), wanted);
    try {
      renameSync(building, venv);
    } catch {
      // Another bench finished first (use its copy), or a stale one is in the way (replace it).
      if (!isReady()) {
        rmSync(venv, { recursive: true, force: true });
        renameSync(building, venv);
      }
    }
    return { python, version: version(), venv, created: true };
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}
