/**
 * Installs the conformance runner folder (tools/conformance: the suite pinned to one version and
 * a Node 22 binary from the npm registry) from its own lockfile, once.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export function ensureRunnerInstalled(runnerRoot: string): void {
  if (existsSync(join(runnerRoot, 'node_modules', '@modelcontextprotocol', 'conformance', 'package.json'))) return;
  process.stdout.write(`conformance: installing the suite into ${runnerRoot} (npm ci)\n`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: runnerRoot, stdio: ['ignore', 'inherit', 'inherit'] });
}
