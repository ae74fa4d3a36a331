/**
 * `baton dev` for real: one process serving a tools module, reloading it when a file changes
 * (streaming notifications/tools/list_changed to a listener), keeping the last good list when an
 * edit breaks it, and gone, with nothing left behind, after SIGTERM.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { requestMeta, standardHeaders } from '../helpers/mcp-http.js';
import { readSseMessages } from '../helpers/sse-events.js';
import { freePort } from '../helpers/spawn-baton.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENGINE = join(ROOT, 'server/engine/index.ts');

/** A tools module of tools that answer at once, one per name. */
function toolsModule(names: string[]): string {
  const tools = names.map(
    (name) =>
      `defineTool({ name: '${name}', description: 'Says ${name}.', inputSchema: { type: 'object' }, machine: respondWith('${name}') })`,
  );
  return `import { defineTool, respondWith } from '${ENGINE}';\nexport const tools = [${tools.join(', ')}];\n`;
}

function rpc(id: number, method: string, params: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: requestMeta() } };
}

async function post(url: string, message: ReturnType<typeof rpc>, signal?: AbortSignal): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: standardHeaders(message),
    body: JSON.stringify(message),
    ...(signal ? { signal } : {}),
  });
}

async function toolNames(url: string): Promise<string[]> {
  const body = (await (await post(url, rpc(90, 'tools/list'))).json()) as {
    result: { tools: Array<{ name: string }> };
  };
  return body.result.tools.map((tool) => tool.name);
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('baton dev', function () {
  this.timeout(60_000);
  let dir = '';
  let file = '';
  let child: ChildProcess | undefined;
  let stderr = '';
  let url = '';

  before(async () => {
    dir = mkdtempSync(join(ROOT, '.baton-dev-test-'));
    file = join(dir, 'index.ts');
    writeFileSync(file, toolsModule(['first']));
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    child = spawn(process.execPath, [join(ROOT, 'bin/baton.js'), 'dev', '--tools', file], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
    await until(() => stderr.includes('"listening"'), 'baton dev to listen');
  });

  after(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the tools module it was given, advertising tools.listChanged', async () => {
    expect(await toolNames(url)).to.deep.equal(['first']);
    const discover = (await (await post(url, rpc(1, 'server/discover'))).json()) as any;
    expect(discover.result.capabilities.tools).to.deep.equal({ listChanged: true });
  });

  it('reloads an edited module without a restart and tells the listeners', async () => {
    const abort = new AbortController();
    const listen = await post(
      url,
      rpc(2, 'subscriptions/listen', { notifications: { toolsListChanged: true } }),
      abort.signal,
    );
    const messages = await readSseMessages(listen, 2, (message) => {
      if (message.method === 'notifications/subscriptions/acknowledged')
        writeFileSync(file, toolsModule(['first', 'second']));
    });
    abort.abort();
    expect(messages[1].method).to.equal('notifications/tools/list_changed');
    expect(await toolNames(url)).to.deep.equal(['first', 'second']);
  });

  it('keeps the last good list when an edit breaks the start-up checks', async () => {
    writeFileSync(file, toolsModule(['first', 'first']));
    await until(() => stderr.includes('not reloaded'), 'the refusal');
    expect(stderr).to.include('defined twice');
    expect(await toolNames(url)).to.deep.equal(['first', 'second']);
  });

  it('serves from one node process and leaves no process behind on SIGTERM', async () => {
    // The only helper allowed is esbuild's transform service (tsx), which ends with its parent.
    const listed = spawnSync('ps', ['-o', 'pid=,comm=', '--ppid', String(child!.pid)], { encoding: 'utf8' });
    const helpers = listed.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => line.trim().split(/\s+/));
    expect(helpers.map(([, command]) => command)).to.not.include('node');
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child!.kill('SIGTERM');
    expect(await exited).to.equal(0);
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await until(() => helpers.every(([pid]) => !alive(Number(pid))), 'the helpers to end', 5_000);
  });
});
