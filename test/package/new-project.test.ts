/**
 * An author's first day, from the packed package: in a temporary folder outside the repository,
 * the `baton` of an installed tarball runs `baton new --project`; in that project, with nothing
 * edited, `npm install` (the tarball, the rest from the registry), `npm start` (a real MCP
 * request with the official client lists and calls the project's own tool), `npm run dev`,
 * `npm test`, `npx baton diagram`, `npx baton docs`, `npx baton stdio` (a real request over
 * stdio) and `npx baton call`, each on the project's tool and not on Baton's examples; and a task
 * tool of the author's whose effect is keyed with `idempotencyKey()`, served by `npx baton serve`.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect } from 'chai';
import { freePort } from '../helpers/spawn-baton.js';
import { PROTOCOL_VERSION } from '../../server/protocol/index.js';
import { callTool } from '../helpers/mcp-http.js';
import { resultOf, TASK_CLIENT, waitForTask } from '../helpers/tasks.js';
import { npm, packedInstall, packedProject, type PackedInstall } from './packed-install.js';
import { listening, startNpm, startScript, stopGroup } from './npm-process.js';

function modernClient(answer: string): { client: Client; asked: string[] } {
  const client = new Client(
    { name: 'new-project-test', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: PROTOCOL_VERSION } },
      inputRequired: { autoFulfill: true, maxRounds: 3 },
    },
  );
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', async ({ params }) => {
    asked.push(params.message);
    return { action: 'accept', content: { name: answer } };
  });
  return { client, asked };
}

/**
 * A task tool as an author writes it, its effect keyed with `idempotencyKey()` from the package:
 * the tool's copy of baton-mcp (loaded in tsx's namespace) must read what the engine's registered.
 */
const KEYED_TASK_TOOLS = `import { fromPromise, setup } from 'xstate';
import { defineTool, idempotencyKey } from 'baton-mcp';

const exportRows = fromPromise<string>(async ({ self, system }) => idempotencyKey({ self, system }));

export const tools = [
  defineTool({
    name: 'export-rows',
    description: 'Exports the rows, once.',
    inputSchema: { type: 'object' },
    task: 'required',
    safeActors: ['exportRows'],
    machine: setup({ actors: { exportRows } }).createMachine({
      id: 'exportRows',
      initial: 'exporting',
      states: {
        exporting: { invoke: { src: 'exportRows', onDone: 'done' } },
        done: { type: 'final' },
      },
    }),
  }),
];
`;

describe('a project made with baton new --project from the packed package', function () {
  this.timeout(600_000);
  let packed: PackedInstall;
  let project = '';
  let running: ChildProcess | undefined;
  const npx = (args: string[]) => npm(['exec', '--no', '--', 'baton', ...args], project);

  before(async function () {
    packed = await packedInstall();
    project = await packedProject('my-tools');
  });

  afterEach(async () => {
    await stopGroup(running);
    running = undefined;
  });

  it('depends on a copy of the tarball it was made from, inside it, and names its tools module', () => {
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    // Relative and inside the project: it installs after the tarball or the project moves.
    const vendored = `vendor/${basename(packed.tarball)}`;
    expect(manifest.dependencies['baton-mcp']).to.equal(`file:${vendored}`);
    expect(readFileSync(join(project, vendored)).equals(readFileSync(packed.tarball))).to.equal(true);
    expect(manifest.baton).to.deep.equal({ tools: 'tools/index.ts' });
    expect(existsSync(join(project, 'node_modules', 'baton-mcp', 'dist', 'server', 'cli', 'cli.js'))).to.equal(true);
  });

  it('npm start serves the project tool over HTTP: the official client lists it and completes it', async () => {
    const port = await freePort();
    const started = startScript(project, 'start', port);
    running = started.child;
    await listening(started, 'npm start');
    expect(started.output()).to.include('BATON_KEYS is not set');
    const { client, asked } = modernClient('Ada');
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).to.deep.equal(['hello']);
      const result = await client.callTool({ name: 'hello', arguments: {} });
      expect(asked).to.deep.equal(['What is your name?']);
      expect(result.content).to.deep.equal([{ type: 'text', text: 'Hello, Ada!' }]);
    } finally {
      await client.close();
    }
  });

  it('npm run dev serves the project tool too', async () => {
    const port = await freePort();
    const started = startScript(project, 'dev', port);
    running = started.child;
    await listening(started, 'npm run dev');
    const { client } = modernClient('Ada');
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).to.deep.equal(['hello']);
    } finally {
      await client.close();
    }
  });

  it('npx baton serve runs a project task tool whose effect takes idempotencyKey()', async () => {
    // Written for this test only, and removed after it: the project's own files stay as made.
    const file = join(project, 'keyed-task-tools.ts');
    writeFileSync(file, KEYED_TASK_TOOLS);
    try {
      const port = await freePort();
      const serve = ['exec', '--no', '--', 'baton', 'serve', '--tools', 'keyed-task-tools.ts'];
      const started = startNpm(project, serve, port);
      running = started.child;
      await listening(started, 'npx baton serve --tools keyed-task-tools.ts');
      const url = `http://127.0.0.1:${port}/mcp`;
      const created = resultOf(await callTool(url, 'export-rows', {}, {}, { capabilities: TASK_CLIENT }));
      expect(created.resultType).to.equal('task');
      const ended = await waitForTask(url, created.taskId, (task) => task.status === 'completed');
      expect(ended.status, started.output()).to.equal('completed');
      expect(ended.result.isError, JSON.stringify(ended.result)).to.not.equal(true);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('npm test typechecks the project and walks every path of its tool', async () => {
    const { stdout } = await npm(['test'], project);
    expect(stdout).to.include('hello: every path of the machine').and.include('passing');
    expect(stdout).to.not.include('failing');
  });

  it('npx baton diagram hello draws the project tool', async () => {
    const { stdout } = await npx(['diagram', 'hello']);
    // Mermaid frontmatter (the ELK layout) first, then the diagram.
    expect(stdout).to.match(/^---\nconfig:\n {2}layout: elk\n---\nstateDiagram-v2\n/);
    expect(stdout).to.include('askName');
  });

  it('npx baton docs writes the project tool page into the project docs/tools/', async () => {
    const { stdout } = await npx(['docs']);
    expect(stdout).to.include(join(project, 'docs', 'tools'));
    expect(readFileSync(join(project, 'docs', 'tools', 'hello.md'), 'utf8')).to.include('stateDiagram-v2');
    expect(existsSync(join(project, 'docs', 'tools', 'release.md'))).to.equal(false);
  });

  it('npx baton stdio serves the project tool to the official client over stdio', async () => {
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['--no', 'baton', 'stdio'],
      cwd: project,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', () => {});
    const { client, asked } = modernClient('Grace');
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).to.deep.equal(['hello']);
      const result = await client.callTool({ name: 'hello', arguments: {} });
      expect(asked).to.have.length(1);
      expect(result.content).to.deep.equal([{ type: 'text', text: 'Hello, Grace!' }]);
    } finally {
      await client.close();
    }
  });

  it('npx baton call hello walks the project tool with scripted answers', async () => {
    const { stdout } = await npx(['call', 'hello', '--answers', JSON.stringify({ name: { name: 'Ada' } })]);
    expect(stdout.trim()).to.equal('Hello, Ada!');
  });
});
