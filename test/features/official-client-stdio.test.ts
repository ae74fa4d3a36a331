/**
 * The shared client cases (client-cases.ts) over stdio: for each client, the official client's
 * `StdioClientTransport` spawns a real `baton stdio --conformance` process (as an MCP host would)
 * and talks newline-delimited JSON-RPC to it. Each process serves its example vault page on a
 * loopback port chosen here; every process is stopped by PID afterwards, even on failure.
 */
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { generateKeyEntry } from '../../server/engine/index.js';
import { PROTOCOL_VERSION } from '../../server/protocol/index.js';
import { freePort } from '../helpers/spawn-baton.js';
import { clientCases } from './client-cases.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('official client (@modelcontextprotocol/client) against `baton stdio`', function () {
  // Each case starts a process; tsx compiles the server on its first start.
  this.timeout(30_000);

  const pids = new Set<number>();
  const stderrTails = new Map<number, string>();
  let pageOrigin = '';

  afterEach(function () {
    // A failing case shows what its server processes logged.
    if (this.currentTest?.state === 'failed') {
      for (const [pid, tail] of stderrTails) process.stderr.write(`--- baton stdio (pid ${pid}) stderr ---\n${tail}\n`);
    }
    stderrTails.clear();
  });

  after(() => {
    // The client's close() ends stdin and the server exits; anything still alive is killed.
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone, as it should be.
      }
    }
  });

  const target = {
    async transport() {
      const port = await freePort();
      pageOrigin = `http://127.0.0.1:${port}`;
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', 'server/cli/cli.ts', 'stdio', '--conformance'],
        cwd: REPO_ROOT,
        env: { BATON_KEYS: generateKeyEntry('stdio'), PORT: String(port), HOST: '127.0.0.1' },
        stderr: 'pipe',
      });
      // Keep reading stderr (a full pipe would block the server's logging) and keep its tail.
      transport.stderr?.on('data', (chunk: Buffer) => {
        const pid = transport.pid;
        if (pid !== null) stderrTails.set(pid, ((stderrTails.get(pid) ?? '') + String(chunk)).slice(-8192));
      });
      const start = transport.start.bind(transport);
      transport.start = async () => {
        await start();
        if (transport.pid !== null) pids.add(transport.pid);
      };
      return transport;
    },
    pageOrigin: () => pageOrigin,
  };
  describe(PROTOCOL_VERSION, () => clientCases(target, 'modern'));
  describe('2025-11-25 (the client in legacy mode: initialize, the process is the session)', () =>
    clientCases(target, 'legacy'));
});
