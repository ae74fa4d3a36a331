/**
 * Runs a test fixture as a process of its own (`node --import tsx <fixture>`), for code that must
 * not reach the test process (an OpenTelemetry SDK registers itself globally), and answers the
 * JSON of the last line it printed. A fixture that exits with a failure fails the test, with its
 * stderr in the message.
 */
import { spawn } from 'node:child_process';
import { expect } from 'chai';

export async function fixtureResult<T>(fixture: string, args: string[] = [], env?: NodeJS.ProcessEnv): Promise<T> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code, stderr).to.equal(0);
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}
