/**
 * The README's `npm test` on a contributor's machine without nginx, redis-server or Chromium:
 * the suites that need them skip, each with one line saying what to install; under `CI=1` they
 * fail instead. Run as a child mocha with a PATH that holds only node, so nothing is found.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';

const SUITES = ['test/features/fleet.test.ts', 'test/features/docs-browser.test.ts'];

function runMocha(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/mocha/bin/mocha.js', ...SUITES], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stderr, stdout }));
  });
}

describe('npm test without nginx, redis-server or Chromium', function () {
  this.timeout(120_000);
  let bin = '';
  let env: NodeJS.ProcessEnv = {};

  before(() => {
    bin = mkdtempSync(join(tmpdir(), 'baton-bare-path-'));
    symlinkSync(process.execPath, join(bin, 'node'));
    const { CI: _ci, ...rest } = process.env;
    env = { ...rest, PATH: bin, BATON_NGINX: '', BATON_CHROMIUM: join(bin, 'no-chromium') };
  });
  after(() => rmSync(bin, { recursive: true, force: true }));

  it('skips those suites, one line each naming what to install, and passes', async () => {
    const run = await runMocha(env);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('skipped '));
    expect(lines.some((line) => line.includes('round robin') && line.includes('apt-get install nginx'))).to.equal(true);
    expect(lines.some((line) => line.includes('Redis') && line.includes('apt-get install redis-server'))).to.equal(
      true,
    );
    expect(lines.some((line) => line.includes('apt-get install chromium'))).to.equal(true);
    expect(new Set(lines).size).to.equal(lines.length);
  });

  it('fails them under CI=1', async () => {
    const run = await runMocha({ ...env, CI: '1' });
    expect(run.code).to.not.equal(0);
  });
});
