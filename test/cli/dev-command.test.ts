/**
 * `baton dev` for real: one process serving the tools module its package.json names, reloading
 * on every save whatever the editor does (rename-and-replace again and again, truncate-and-write,
 * a new file, a deleted file), logging the file behind each reload, saying loudly when a reload
 * fails (file and line) while the last good list keeps serving, applying `serve`'s security
 * settings, and gone, with nothing left behind, after SIGTERM.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { postFrom } from '../helpers/from-address.js';
import { requestMeta, standardHeaders } from '../helpers/mcp-http.js';
import { readSseMessages } from '../helpers/sse-events.js';
import { freePort } from '../helpers/spawn-baton.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENGINE = join(ROOT, 'server/engine/index.ts');

/** A tools module of tools that answer at once, one per name; `imports` adds modules' `tools`. */
function toolsModule(names: string[], imports: string[] = []): string {
  const tools = names.map(
    (name) =>
      `defineTool({ name: '${name}', description: 'Says ${name}.', inputSchema: { type: 'object' }, machine: respondWith('${name}') })`,
  );
  const imported = imports.map((from, n) => `import { tools as imported${n} } from './${from}.js';\n`).join('');
  const spread = imports.map((_, n) => `...imported${n}`);
  return `import { defineTool, respondWith } from '${ENGINE}';\n${imported}export const tools = [${[...tools, ...spread].join(', ')}];\n`;
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
  return body.result.tools.map((tool) => tool.name).sort();
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The `reloaded` log lines so far, parsed. */
function reloads(stderr: string): Array<{ changed: string; tools: string[] }> {
  return stderr
    .split('\n')
    .filter((line) => line.includes('"event":"reloaded"'))
    .map((line) => JSON.parse(line));
}

/** Starts `baton dev` in `cwd` (its package.json names the tools); resolves once it listens. */
async function startDev(cwd: string, env: Record<string, string> = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'bin/baton.js'), 'dev'], {
    cwd,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const state = { child, stderr: '', url: `http://127.0.0.1:${port}/mcp` };
  child.stderr!.on('data', (chunk: Buffer) => (state.stderr += chunk));
  await until(() => state.stderr.includes('"listening"') || child.exitCode !== null, 'baton dev to listen', 30_000);
  if (child.exitCode !== null) throw new Error(`baton dev exited ${child.exitCode}:\n${state.stderr}`);
  return state;
}

describe('baton dev', function () {
  this.timeout(90_000);
  let dir = '';
  let file = '';
  let dev: Awaited<ReturnType<typeof startDev>>;

  before(async () => {
    dir = mkdtempSync(join(ROOT, '.baton-dev-test-'));
    file = join(dir, 'index.ts');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', baton: { tools: 'index.ts' } }));
    writeFileSync(file, toolsModule(['first']));
    dev = await startDev(dir);
  });

  after(() => {
    if (dev?.child.exitCode === null) dev.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the tools module package.json names, advertising tools.listChanged', async () => {
    expect(await toolNames(dev.url)).to.deep.equal(['first']);
    const discover = (await (await post(dev.url, rpc(1, 'server/discover'))).json()) as any;
    expect(discover.result.capabilities.tools).to.deep.equal({ listChanged: true });
  });

  it('reloads an edited module without a restart and tells the listeners', async () => {
    const abort = new AbortController();
    const listen = await post(
      dev.url,
      rpc(2, 'subscriptions/listen', { notifications: { toolsListChanged: true } }),
      abort.signal,
    );
    const messages = await readSseMessages(listen, 2, (message) => {
      if (message.method === 'notifications/subscriptions/acknowledged')
        writeFileSync(file, toolsModule(['first', 'second']));
    });
    abort.abort();
    expect(messages[1].method).to.equal('notifications/tools/list_changed');
    expect(await toolNames(dev.url)).to.deep.equal(['first', 'second']);
  });

  it('serves docs pages that follow the reload', async () => {
    const index = await (await fetch(dev.url.replace(/\/mcp$/, '/docs'))).text();
    expect(index).to.include('second');
    expect((await fetch(dev.url.replace(/\/mcp$/, '/docs/tools/second'))).status).to.equal(200);
  });

  it('sees every one of several rename-and-replace (atomic) saves in a row, logging the file', async () => {
    for (let save = 1; save <= 5; save++) {
      const before = reloads(dev.stderr).length;
      // What editors that save atomically (and `sed -i`) do: write a new file, rename it over.
      const temporary = join(dir, `.index.ts.${save}.tmp`);
      writeFileSync(temporary, toolsModule(['first', `atomic-${save}`]));
      renameSync(temporary, file);
      await until(
        async () => (await toolNames(dev.url)).includes(`atomic-${save}`),
        `atomic save ${save} to be served`,
      );
      await until(() => reloads(dev.stderr).length > before, `the reload of save ${save} to be logged`);
      expect(reloads(dev.stderr).at(-1)!.changed).to.include('index.ts');
    }
  });

  it('sees a truncate-and-write save, a new file and a deleted file', async () => {
    // Truncate and write in place (what `>` in a shell and many editors do).
    writeFileSync(file, toolsModule(['truncated']));
    await until(async () => (await toolNames(dev.url)).includes('truncated'), 'the truncated-and-written save');
    // A new file: the module imports it before it exists (that reload fails), then it appears.
    writeFileSync(file, toolsModule(['truncated'], ['extra']));
    await until(() => dev.stderr.includes('RELOAD FAILED'), 'the refused import of a missing file');
    writeFileSync(join(dir, 'extra.ts'), toolsModule(['extra']));
    await until(async () => (await toolNames(dev.url)).includes('extra'), 'the new file to be served');
    await until(
      () => reloads(dev.stderr).some((reload) => reload.changed.includes('extra.ts (created)')),
      'the reload to name the new file',
    );
    // A deleted file: the reload it causes fails, loudly, and the last good list keeps serving.
    const failures = dev.stderr.split('RELOAD FAILED').length;
    unlinkSync(join(dir, 'extra.ts'));
    await until(() => dev.stderr.split('RELOAD FAILED').length > failures, 'the deleted file to be noticed');
    expect(dev.stderr).to.include('extra.ts (deleted)');
    expect(await toolNames(dev.url)).to.deep.equal(['extra', 'truncated']);
  });

  it('says loudly when a reload fails, naming the file and line, and keeps serving the last good tools', async () => {
    const failures = dev.stderr.split('RELOAD FAILED').length;
    writeFileSync(file, `${toolsModule(['first'])}\nexport const broken = (;\n`);
    await until(() => dev.stderr.split('RELOAD FAILED').length > failures, 'the refused syntax error');
    expect(dev.stderr).to.match(/at \S*index\.ts:4:\d+/);
    // The problem is told once: the place on the `at` line, not again at the head of esbuild's message.
    const banner = dev.stderr.slice(dev.stderr.lastIndexOf('RELOAD FAILED'));
    expect(banner.match(/index\.ts:4:\d+/g), banner).to.have.length(1);
    expect(banner).to.include('ERROR: Unexpected');
    expect(await toolNames(dev.url)).to.deep.equal(['extra', 'truncated']);
    // A list that fails the start-up checks is refused the same way.
    writeFileSync(file, toolsModule(['first', 'first']));
    await until(() => dev.stderr.includes('defined twice'), 'the refused duplicate');
    expect(await toolNames(dev.url)).to.deep.equal(['extra', 'truncated']);
    writeFileSync(file, toolsModule(['first', 'second']));
    await until(async () => (await toolNames(dev.url)).includes('second'), 'the fixed module');
  });

  it('serves from one node process and leaves no process behind on SIGTERM', async () => {
    const { child } = dev;
    // The only helper allowed is esbuild's transform service (tsx), which ends with its parent.
    const listed = spawnSync('ps', ['-o', 'pid=,comm=', '--ppid', String(child.pid)], { encoding: 'utf8' });
    const helpers = listed.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => line.trim().split(/\s+/));
    expect(helpers.map(([, command]) => command)).to.not.include('node');
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
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

  describe('with the settings of `baton serve`', () => {
    let secured: Awaited<ReturnType<typeof startDev>> | undefined;
    after(() => {
      if (secured?.child.exitCode === null) secured.child.kill('SIGKILL');
    });

    it('applies tokens, the Host list and the limits, with the same warnings', async () => {
      secured = await startDev(dir, {
        BATON_TOKENS: 'ada:dev-test-token-0123456789',
        BATON_ALLOWED_HOSTS: 'tools.example.com',
        BATON_MAX_BODY_BYTES: '2048',
      });
      expect(secured.stderr).to.include('BATON_KEYS is not set');
      const list = rpc(3, 'tools/list');
      const host = 'tools.example.com';
      const token = 'Bearer dev-test-token-0123456789';
      expect((await postFrom('127.0.0.1', secured.url, list, { host })).status).to.equal(401);
      expect((await postFrom('127.0.0.1', secured.url, list, { authorization: token })).status).to.equal(403);
      expect((await postFrom('127.0.0.1', secured.url, list, { host, authorization: token })).status).to.equal(200);
      const large = { ...list, params: { ...list.params, padding: 'x'.repeat(4096) } };
      expect((await postFrom('127.0.0.1', secured.url, large, { host, authorization: token })).status).to.equal(413);
    });
  });
});
