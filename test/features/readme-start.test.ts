/**
 * The README's first command, for real: `npm start` on a checkout builds dist/ and serves the
 * example tools, with the loud dev-key warning when no BATON_KEYS is set. (`npm install` is what
 * the test run itself stands on.)
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { PACKAGE_ROOT } from '../../server/package-root.js';
import { rpc } from '../helpers/mcp-http.js';
import { freePort } from '../helpers/spawn-baton.js';

describe('the README quick start', function () {
  this.timeout(120_000);

  it('starts with `npm install && npm start`', () => {
    const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(firstBlock.split('\n')[0]).to.match(/^npm install && npm start\s/);
  });

  it('npm start builds, warns about the dev key, and serves the example tools', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(await freePort()), HOST: '127.0.0.1' };
    delete env.BATON_KEYS;
    // Its own process group, so the npm wrapper and the server it starts are stopped together.
    const child = spawn('npm', ['start'], {
      cwd: PACKAGE_ROOT,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const origin = `http://127.0.0.1:${env.PORT}`;
    try {
      const deadline = Date.now() + 90_000;
      let healthy = false;
      while (!healthy && Date.now() < deadline && child.exitCode === null) {
        healthy = await fetch(`${origin}/healthz`).then(
          (response) => response.ok,
          () => false,
        );
        if (!healthy) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(healthy, output.slice(-2000)).to.equal(true);
      expect(output).to.include('WARNING: BATON_KEYS is not set');
      const tools = await rpc(`${origin}/mcp`, 'tools/list');
      expect(tools.body.result.tools.map((tool: { name: string }) => tool.name)).to.include.members([
        'release',
        'provision-database',
        'connect-payments',
      ]);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // Already gone.
      }
      await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
    }
  });
});
