/**
 * One run of the conformance suite's CLI as a child process, everything it prints (stdout and
 * stderr) going to a log file. The suite's own output is not echoed: its closing `Total: N passed,
 * N failed` line counts checks of scored and unscored scenarios alike, and must not be mistaken
 * for the score.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { NodeBinary } from './node-22.js';

export interface SuiteRunOptions {
  node: NodeBinary;
  /** The suite's CLI entry (`dist/index.js` of the package). */
  cliPath: string;
  args: string[];
  cwd: string;
  logPath: string;
  /** Hard limit for the whole run, on top of the suite's per-scenario `--timeout`. */
  deadlineMs: number;
  killGraceMs?: number;
}

export interface SuiteRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  durationMs: number;
  /** Set when the suite could not be started or had to be killed. */
  problem?: string;
}

export interface SuiteHandle {
  done: Promise<SuiteRun>;
  /** SIGTERM now, SIGKILL after the grace period. */
  kill(): void;
}

export function runSuite(options: SuiteRunOptions): SuiteHandle {
  const { node, cliPath, args, killGraceMs = 5_000 } = options;
  const log = createWriteStream(options.logPath);
  log.write(
    [
      `# ${node.command} ${cliPath} ${args.join(' ')}`,
      `# node ${node.version} (${node.source}); started ${new Date().toISOString()}`,
      '',
      '',
    ].join('\n'),
  );
  const started = Date.now();
  const child = spawn(node.command, [cliPath, ...args], {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });

  let problem: string | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  const kill = () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    killTimer ??= setTimeout(() => child.kill('SIGKILL'), killGraceMs);
  };
  const deadline = setTimeout(() => {
    problem = `the suite did not finish within ${options.deadlineMs} ms and was stopped`;
    kill();
  }, options.deadlineMs);

  const done = new Promise<SuiteRun>((resolve) => {
    let finished = false;
    const finish = async (exitCode: number | null, signal: NodeJS.Signals | null) => {
      if (finished) return; // 'error' can be followed by 'close'
      finished = true;
      clearTimeout(deadline);
      clearTimeout(killTimer);
      const durationMs = Date.now() - started;
      log.end(`\n# exit code ${exitCode ?? '-'}${signal ? `, signal ${signal}` : ''}, ${durationMs} ms\n`);
      await once(log, 'close').catch(() => {});
      resolve({ exitCode, signal, durationMs, ...(problem ? { problem } : {}) });
    };
    child.once('error', (error) => {
      problem = `could not start the suite (${error.message})`;
      void finish(null, null);
    });
    child.once('close', (code, signal) => void finish(code, signal));
  });
  return { done, kill };
}
