/**
 * The package as a user gets it: `npm pack`, installed from the tarball into a fresh project
 * outside the repository (packed-install.ts), a tool written against `baton-mcp` compiled with
 * `tsc --strict`, served with `baton-mcp/server`, and one flow completed with the official client.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { PROTOCOL_VERSION } from '../../server/protocol/index.js';
import { packedInstall, REPO } from './packed-install.js';
const TSC = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');

/** The first tool of docs/authoring.md, as written there, so the page cannot drift from the package. */
const GREET_TOOL = /```ts[^\n]*\n([\s\S]*?)```/.exec(readFileSync(join(REPO, 'docs', 'authoring.md'), 'utf8'))![1]!;

/** The project's server, in TypeScript too, so baton-mcp/server's declarations are checked as well. */
const SERVE = `import { serve } from 'baton-mcp/server';
import { testKeyRing } from 'baton-mcp/testing';
import { greetTool } from './greet.js';

const serving = await serve({ tools: [greetTool], keyRing: testKeyRing(), port: 0, docs: false });
process.stdout.write(serving.url + '\\n');
process.once('SIGTERM', () => void serving.close().then(() => process.exit(0)));
`;

/** Every module the file imports, following relative imports; returns the bare specifiers. */
function bareImports(entry: string, seen = new Set<string>(), bare = new Set<string>()): Set<string> {
  if (seen.has(entry)) return bare;
  seen.add(entry);
  const source = readFileSync(entry, 'utf8');
  for (const [, specifier] of source.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]/g)) {
    if (specifier!.startsWith('.')) bareImports(resolve(dirname(entry), specifier!), seen, bare);
    else bare.add(specifier!);
  }
  for (const [, specifier] of source.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) bare.add(specifier!);
  return bare;
}

describe('the packed package (npm pack, installed into a fresh project)', function () {
  this.timeout(600_000);
  let project: string;
  let server: ChildProcess | undefined;

  before(async function () {
    project = (await packedInstall()).userProject;
  });

  after(async function () {
    if (server?.pid && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((done) => server!.once('exit', done));
    }
  });

  it('exports baton-mcp, baton-mcp/server and baton-mcp/testing, and no internals', () => {
    const run = (code: string) =>
      execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: project, encoding: 'utf8' });
    expect(
      run(`const m = await import('baton-mcp'); console.log(typeof m.toolSetup, typeof m.defineTool)`).trim(),
    ).to.equal('function function');
    expect(
      run(`const m = await import('baton-mcp/server'); console.log(typeof m.createServer, typeof m.serve)`).trim(),
    ).to.equal('function function');
    expect(run(`const m = await import('baton-mcp/testing'); console.log(typeof m.testKeyRing)`).trim()).to.equal(
      'function',
    );
    expect(run(`const m = await import('baton-mcp'); console.log('isRecord' in m, 'FlowEngine' in m)`).trim()).to.equal(
      'false false',
    );
    expect(() =>
      execFileSync(
        process.execPath,
        ['--input-type=module', '-e', `await import('baton-mcp/dist/server/engine/index.js')`],
        {
          cwd: project,
          stdio: 'pipe',
        },
      ),
    ).to.throw(/ERR_PACKAGE_PATH_NOT_EXPORTED/);
  });

  it('loads no Redis, BullMQ, Koa, ajv or crypto when a tool imports baton-mcp', () => {
    const entry = join(project, 'node_modules', 'baton-mcp', 'dist', 'server', 'engine', 'authoring', 'index.js');
    expect([...bareImports(entry)]).to.deep.equal(['xstate']);
  });

  it("ships Stately's parser for baton dev's editor as one file, and no XState v4 a project could resolve", () => {
    const pkg = join(project, 'node_modules', 'baton-mcp');
    const bundle = join(pkg, 'dist', 'server', 'cli', 'editor', 'statechart-parser', 'index.cjs');
    expect(existsSync(bundle)).to.equal(true);
    expect(readFileSync(join(dirname(bundle), 'LICENSES.txt'), 'utf8')).to.include('@xstate/machine-extractor@0.16.0');
    // It reads (and rewrites) a machine in the installed project, needing nothing installed beside it.
    const read = execFileSync(
      process.execPath,
      [
        '-e',
        `const p = require(${JSON.stringify(bundle)});
         const [m] = p.extractMachinesFromFile("createMachine({ id: 'a', initial: 'x', states: { x: { on: { go: 'y' } }, y: { type: 'final' } } })").machines;
         console.log(m.getAllStateNodes().map((s) => s.path.join('.') || '(root)').join(' '));
         console.log(m.modify([{ type: 'add_state', path: [], name: 'z' }], { v5: true }).configEdit.newText.includes('z: {}'));`,
      ],
      { cwd: project, encoding: 'utf8' },
    );
    expect(read.trim().split('\n')).to.deep.equal(['(root) x y', 'true']);
    // Nothing of the parser is installed as a package: every xstate the project can resolve is v5.
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
    expect(manifest.bundleDependencies ?? manifest.bundledDependencies).to.equal(undefined);
    expect(Object.keys(manifest.dependencies)).to.not.include('baton-statechart-parser');
    const xstates = execFileSync('find', [join(project, 'node_modules'), '-path', '*/xstate/package.json'], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .map((file) => JSON.parse(readFileSync(file, 'utf8')).version as string);
    expect(xstates.length).to.be.greaterThan(0);
    expect(xstates.filter((version) => !version.startsWith('5.'))).to.deep.equal([]);
  });

  it('compiles a tool written against baton-mcp, and its server, with tsc --strict', () => {
    writeFileSync(join(project, 'src', 'greet.ts'), GREET_TOOL);
    writeFileSync(join(project, 'src', 'serve.ts'), SERVE);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          outDir: 'dist',
          rootDir: 'src',
          // The package's own declarations are checked too, with what they import.
          skipLibCheck: false,
          types: ['node'],
        },
        include: ['src'],
      }),
    );
    try {
      execFileSync(process.execPath, [TSC, '-p', project], { cwd: project, encoding: 'utf8' });
    } catch (error) {
      expect.fail(`tsc failed:\n${(error as { stdout?: string }).stdout ?? String(error)}`);
    }
  });

  it('serves the tool with baton-mcp/server and completes a flow with the official client', async () => {
    server = spawn(process.execPath, ['dist/serve.js'], { cwd: project, stdio: ['ignore', 'pipe', 'ignore'] });
    const url = await new Promise<string>((done, fail) => {
      let out = '';
      server!.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) done(out.split('\n')[0]!);
      });
      server!.once('exit', (code) => fail(new Error(`the served project exited with ${code}`)));
    });
    const client = new Client(
      { name: 'packed-package-test', version: '1.0.0' },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: PROTOCOL_VERSION } },
        inputRequired: { autoFulfill: true, maxRounds: 3 },
      },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async ({ params }) => {
      asked.push(params.message);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const result = await client.callTool({ name: 'greet', arguments: { greeting: 'Hello' } });
      expect(asked).to.deep.equal(['What is your name?']);
      expect(result.isError).to.not.equal(true);
      expect(result.content).to.deep.equal([{ type: 'text', text: 'Hello, Ada!' }]);
    } finally {
      await client.close();
    }
  });
});
