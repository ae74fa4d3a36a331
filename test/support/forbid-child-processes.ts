/**
 * Loaded by the fast loop only (fast.mocharc.cjs): every way to start a child process throws, so
 * a test that needs one (a spawned Baton, redis-server, nginx, Chromium, a cluster worker, npm)
 * fails in the fast loop with a message that says where it belongs, instead of slowing the loop
 * down unseen. The full run (`npm test`) never loads this.
 *
 * Let through: esbuild (tsx compiles the test files with it, in a process of its own) and mocha's
 * own workers when the loop runs in parallel.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

const STARTERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;

const OWN = /esbuild|mocha[\\/]lib[\\/]nodejs[\\/]worker\.c?js$/;

function refuse(name: string, command: unknown): never {
  throw new Error(
    `the fast loop runs no child processes, and this test started one (${name} ${String(command)}). ` +
      'Add its file to SLOW in test/support/fast.mocharc.cjs: npm test still runs it.',
  );
}

for (const name of STARTERS) {
  const original = childProcess[name] as (...args: unknown[]) => unknown;
  const guarded = (command: unknown, ...rest: unknown[]) =>
    typeof command === 'string' && OWN.test(command) ? original(command, ...rest) : refuse(name, command);
  (childProcess as unknown as Record<string, unknown>)[name] = guarded;
}
// `import { spawn } from 'node:child_process'` reads the ES module's bindings: bring them in step.
syncBuiltinESMExports();
