/**
 * `baton versions keep TOOL` in a project of its own under git (a temporary folder): the tool is
 * committed, its structure changed in the working tree (a state renamed), and keep copies the
 * committed file beside it as hello.v1.ts, lists it in the tool's `versions`, and says what
 * changed; the copy loads and typechecks, `baton versions` records it and `versions check` passes.
 * Keeping again after the next change makes hello.v2.ts, the first kept version staying listed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { versionsCommand } from '../../server/cli/versions-command.js';
import { registerKept } from '../../server/cli/versions-keep.js';
import { toolSource } from '../../server/cli/scaffold-templates.js';
import { loadToolsModule } from '../../server/cli/tools-module.js';
import { createMemoryVault } from '../../machines/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENGINE = join(ROOT, 'server', 'engine', 'index.js');
const HELLO = toolSource('hello', { authoring: ENGINE, testing: '', tool: '' });
const INDEX = `import { helloTool } from './hello.js';\n\nexport const tools = [helloTool];\n`;

describe('baton versions keep', function () {
  this.timeout(60_000);
  let dir: string;
  const toolFile = () => join(dir, 'tools', 'hello.ts');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
  const run = async (action?: string, tool?: string, options: { ref?: string; source?: string } = {}) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await versionsCommand(
      { tools: join(dir, 'tools', 'index.ts'), ...options },
      action,
      { out: (text) => void out.push(text), err: (text) => void err.push(text) },
      tool,
    );
    return { code, out: out.join(''), err: err.join('') };
  };
  const rename = (from: string, to: string) =>
    writeFileSync(toolFile(), readFileSync(toolFile(), 'utf8').replaceAll(from, to));
  const commit = (message: string) => {
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', message);
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'baton-keep-'));
    // The copy and the tool import xstate as a project would: from node_modules.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    mkdirSync(join(dir, 'tools'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'keep-test', type: 'module' }));
    writeFileSync(join(dir, '.gitignore'), 'node_modules\n');
    writeFileSync(toolFile(), HELLO);
    writeFileSync(join(dir, 'tools', 'index.ts'), INDEX);
    git('init', '-q');
    expect((await run()).code).to.equal(0);
    commit('hello, version 1');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the committed version beside the tool, lists it, and the check passes once recorded', async () => {
    rename('askName', 'askFullName');
    const before = await run('check');
    expect(before.code).to.equal(1);
    expect(before.err).to.include('hello: changed (states renamed: askName -> askFullName)');

    const kept = await run('keep', 'hello');
    expect(kept.code, kept.err).to.equal(0);
    expect(kept.out)
      .to.include('hello changed since HEAD (version ')
      .and.include('states renamed: askName -> askFullName')
      .and.include('hello.v1.ts (v1) and listed it in')
      .and.include('Next: npx baton versions');
    const copy = readFileSync(join(dir, 'tools', 'hello.v1.ts'), 'utf8');
    expect(copy).to.include('// hello, v1:').and.include("initial: 'askName'");
    const source = readFileSync(toolFile(), 'utf8');
    expect(source).to.include("import { helloTool as helloV1Tool } from './hello.v1.js';");
    expect(source).to.include("  versions: [{ machine: helloV1Tool.machine, label: 'v1' }],");

    const serving = { publicUrl: 'http://127.0.0.1:3000', vault: createMemoryVault() };
    const { tools } = await loadToolsModule(join(dir, 'tools', 'index.ts'), serving);
    expect(tools[0]?.versions?.map((version) => version.label)).to.deep.equal(['v1']);

    expect((await run('check')).err).to.include('is kept');
    expect((await run()).code).to.equal(0);
    expect((await run('check')).code).to.equal(0);

    // The next change keeps the next version; the first stays listed.
    commit('hello, version 2');
    rename('askFullName', 'askFirstName');
    const again = await run('keep', 'hello');
    expect(again.code, again.err).to.equal(0);
    expect(existsSync(join(dir, 'tools', 'hello.v2.ts'))).to.equal(true);
    expect(readFileSync(toolFile(), 'utf8')).to.include(
      "versions: [{ machine: helloV2Tool.machine, label: 'v2' }, { machine: helloV1Tool.machine, label: 'v1' }],",
    );
    expect((await run()).code).to.equal(0);
    expect((await run('check')).code).to.equal(0);
  });

  it('writes a copy and an edit that typecheck with strict TypeScript', async () => {
    rename('askName', 'askFullName');
    expect((await run('keep', 'hello')).code).to.equal(0);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true },
        files: ['tools/index.ts'],
      }),
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    expect(() => execFileSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' })).to.not.throw();
  });

  it('keeps nothing when the committed structure is the one served, and says to name the commit before', async () => {
    const same = await run('keep', 'hello');
    expect(same.code).to.equal(1);
    expect(same.err).to.include('nothing to keep').and.include('--ref HEAD~1');
    expect(existsSync(join(dir, 'tools', 'hello.v1.ts'))).to.equal(false);

    // Committed already: the commit before is kept.
    rename('askName', 'askFullName');
    commit('hello, version 2');
    const earlier = await run('keep', 'hello', { ref: 'HEAD~1' });
    expect(earlier.code, earlier.err).to.equal(0);
    expect(readFileSync(join(dir, 'tools', 'hello.v1.ts'), 'utf8')).to.include("initial: 'askName'");
  });

  it('prints the two lines when the edit is not safe to make, and leaves the file as it is', async () => {
    rename('askName', 'askFullName');
    const text = readFileSync(toolFile(), 'utf8').replace('  machine,\n', '  machine,\n  versions: earlier,\n');
    writeFileSync(toolFile(), `const earlier: never[] = [];\n${text}`);
    const manual = await run('keep', 'hello');
    expect(manual.code).to.equal(1);
    expect(manual.err)
      .to.include("import { helloTool as helloV1Tool } from './hello.v1.js';")
      .and.include("versions: [{ machine: helloV1Tool.machine, label: 'v1' }],");
    expect(readFileSync(toolFile(), 'utf8')).to.not.include('helloV1Tool');
    expect(existsSync(join(dir, 'tools', 'hello.v1.ts'))).to.equal(true);
  });

  it('answers usage errors with exit code 2', async () => {
    expect((await run('keep')).err).to.include('name the tool: baton versions keep TOOL');
    expect((await run('keep')).code).to.equal(2);
    const unknown = await run('keep', 'nope');
    expect([unknown.code, unknown.err]).to.deep.equal([
      2,
      'baton versions keep: no tool named "nope" is served here (hello).\n',
    ]);
    expect((await run('check', 'hello')).code).to.equal(2);
    expect((await run(undefined, undefined, { ref: 'HEAD' })).code).to.equal(2);
    rmSync(join(dir, '.git'), { recursive: true });
    const outside = await run('keep', 'hello');
    expect(outside.code).to.equal(2);
    expect(outside.err).to.include('git rev-parse');
  });
});

describe('registerKept', () => {
  const edit = (text: string) =>
    registerKept(text, 'x', 'xV1Tool', "import { xTool as xV1Tool } from './x.v1.js';", '{ machine: xV1Tool.machine }');

  it('adds the import after a multi-line import, and a list opened on its own line', () => {
    const text =
      "import {\n  a,\n} from 'a';\n\nexport const t = defineTool({\n  name: 'x',\n  versions: [\n    old,\n  ],\n});\n";
    expect(edit(text)).to.equal(
      "import {\n  a,\n} from 'a';\nimport { xTool as xV1Tool } from './x.v1.js';\n\nexport const t = defineTool({\n  name: 'x',\n  versions: [\n    { machine: xV1Tool.machine },\n    old,\n  ],\n});\n",
    );
  });

  it('refuses two name lines for the tool', () => {
    expect(edit("import a from 'a';\nconst t = { name: 'x', };\nconst u = { name: 'x', };\n")).to.equal(undefined);
  });
});
