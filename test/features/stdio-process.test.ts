/**
 * `baton stdio` as a real process, byte for byte: stdout carries only MCP messages (one JSON
 * object a line), logs go to stderr, and the process exits on its own once stdin ends and the
 * requests in flight are answered. Every process is killed by PID afterwards if still alive.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { JsonLines, request, sendLine } from '../helpers/json-lines.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface StdioProcess {
  child: ChildProcess;
  lines: JsonLines;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

describe('baton stdio (a real process)', function () {
  this.timeout(30_000);
  const children: ChildProcess[] = [];

  function start(args: string[] = [], env: Record<string, string> = {}): StdioProcess {
    const environment: NodeJS.ProcessEnv = { ...process.env, ...env };
    if (!('BATON_KEYS' in env)) delete environment.BATON_KEYS;
    delete environment.PORT;
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/cli.ts', 'stdio', ...args], {
      cwd: REPO_ROOT,
      env: environment,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    return { child, lines: new JsonLines(child.stdout!), stderr: () => stderr, exited };
  }

  after(() => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        process.kill(child.pid, 'SIGKILL');
      }
    }
  });

  it('writes only MCP messages to stdout, its logs and the dev-key warning to stderr', async () => {
    const server = start();
    sendLine(server.child.stdin!, request(1, 'tools/list'));
    sendLine(server.child.stdin!, 'not json');
    const list = await server.lines.response(1, 20_000);
    server.child.stdin!.end();
    expect(await server.exited).to.deep.equal({ code: 0, signal: null });

    // The examples, and no conformance fixture without --conformance.
    const names: string[] = list.result.tools.map((tool: { name: string }) => tool.name);
    expect(names).to.include.members(['release', 'provision-database', 'connect-payments']);
    expect(names.filter((name) => name.startsWith('test_'))).to.deep.equal([]);
    expect(server.lines.garbage).to.deep.equal([]);
    expect(server.lines.messages.map((message) => message.error?.code ?? message.id)).to.have.members([-32700, 1]);
    expect(server.stderr()).to.include('EPHEMERAL').and.include('stdio_ready');
  });

  it('exits with 0 soon after stdin ends, once the requests in flight are answered', async () => {
    const server = start(['--conformance'], { BATON_KEYS: 'k1:' + Buffer.alloc(32, 7).toString('base64') });
    // Wait until it serves, so the timing below measures the drain and not the start-up.
    sendLine(server.child.stdin!, request(0, 'server/discover'));
    await server.lines.response(0, 20_000);
    sendLine(
      server.child.stdin!,
      request(
        1,
        'tools/call',
        { name: 'test_tool_with_progress', arguments: {} },
        {
          meta: { progressToken: 'tok' },
        },
      ),
    );
    sendLine(
      server.child.stdin!,
      request(2, 'tools/call', { name: 'release', arguments: { service: 'a', version: '1' } }),
    );
    const ended = Date.now();
    server.child.stdin!.end();
    expect(await server.exited).to.deep.equal({ code: 0, signal: null });
    expect(Date.now() - ended).to.be.lessThan(3000);

    expect(server.lines.withId(1)[0]!.result.content[0].text).to.be.a('string');
    expect(server.lines.withId(2)[0]!.result.resultType).to.equal('input_required');
    const progress = server.lines.messages.filter((message) => message.method === 'notifications/progress');
    expect(progress.map((message) => message.params.progress)).to.deep.equal([0, 50, 100]);
    expect(server.stderr()).to.not.include('EPHEMERAL');
  });
});
