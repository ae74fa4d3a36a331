/**
 * npm commands that keep running (`npm start`, `npm run dev`, `npx baton serve`) in a project made
 * from the packed package, each in its own process group, so stopping it stops npm, sh and node
 * alike, by the group's id.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface RunningNpm {
  child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr together. */
  output: () => string;
}

/** `npm <args>` in its own process group, listening on 127.0.0.1:`port`. */
export function startNpm(cwd: string, args: string[], port: number): RunningNpm {
  const child = spawn('npm', args, {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  return { child, output: () => output };
}

/** `npm run <script>` in its own process group. */
export function startScript(cwd: string, script: string, port: number): RunningNpm {
  return startNpm(cwd, ['run', script, '--silent'], port);
}

export async function stopGroup(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
}

/** Resolves once the server logged `"listening"`; fails with its output if it exits or stalls. */
export async function listening(started: RunningNpm, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!started.output().includes('"listening"')) {
    if (started.child.exitCode !== null)
      throw new Error(`${what} exited ${started.child.exitCode}:\n${started.output()}`);
    if (Date.now() > deadline) throw new Error(`${what} did not listen:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
