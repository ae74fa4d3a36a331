/**
 * Baton's processes run with its V8 settings (server/v8-settings.ts): `baton serve` applies them
 * and says so when it listens; `serve()` and `applyV8Settings()` apply them once.
 */
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { appliedV8Settings, applyV8Settings, V8_SETTINGS } from '../../server/v8-settings.js';
import { PACKAGE_ROOT } from '../../server/package-root.js';
import { freePort } from '../helpers/spawn-baton.js';

describe('V8 settings', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    child = undefined;
  });

  it('turns allocation-site pretenuring off, once', () => {
    expect(V8_SETTINGS).to.include('--no-allocation-site-pretenuring');
    expect(applyV8Settings()).to.equal(V8_SETTINGS);
    expect(applyV8Settings()).to.equal(V8_SETTINGS);
    expect(appliedV8Settings()).to.equal(V8_SETTINGS);
  });

  // The listening line names what the process applied (none had the CLI not applied them).
  it('baton serve runs with them and names them when it listens', async () => {
    const port = await freePort();
    child = spawn(process.execPath, [join(PACKAGE_ROOT, 'bin/baton.js'), 'serve'], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    const listening = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`baton serve did not listen: ${stderr}`)), 20_000);
      child!.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const line = stderr.split('\n').find((l) => l.includes('"listening"'));
        if (line) {
          clearTimeout(timer);
          resolve(JSON.parse(line.slice(line.indexOf('{'))) as Record<string, unknown>);
        }
      });
    });
    expect(listening.v8).to.deep.equal([...V8_SETTINGS]);
  });
});
