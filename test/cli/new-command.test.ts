/**
 * `baton new`: the tool, its test and its registration it writes run as written. In this
 * repository's layout (a copy under a temporary root, so the real machines/tools/ is untouched),
 * and as a fresh project on the package (its `baton-mcp` dependency stood in by this checkout).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function baton(args: string[], cwd = ROOT) {
  return spawnSync(process.execPath, [join(ROOT, 'bin/baton.js'), ...args], { cwd, encoding: 'utf8' });
}

function mocha(cwd: string, files: string[]) {
  return spawnSync(process.execPath, [join(ROOT, 'node_modules/mocha/bin/mocha.js'), ...files], {
    cwd,
    encoding: 'utf8',
  });
}

describe('baton new', function () {
  this.timeout(60_000);

  describe('in this repository', () => {
    let root = '';
    before(() => {
      root = mkdtempSync(join(ROOT, '.baton-new-test-'));
      mkdirSync(join(root, 'machines/tools'), { recursive: true });
      writeFileSync(join(root, 'machines/tools/index.ts'), readFileSync(join(ROOT, 'machines/tools/index.ts')));
      writeFileSync(join(root, 'baton.versions.json'), JSON.stringify({ tools: {} }));
    });
    after(() => rmSync(root, { recursive: true, force: true }));

    it('writes the machine, its test and its registration, and the test passes', () => {
      const made = baton(['new', 'expense-approval', '--root', root]);
      expect(made.status, made.stderr).to.equal(0);
      const index = readFileSync(join(root, 'machines/tools/index.ts'), 'utf8');
      expect(index).to.include("import { expenseApprovalTool } from './expense-approval.js';");
      expect(index).to.match(/^ {2}expenseApprovalTool,$/m);
      // A new tool has no flow in flight: recorded at once, so the versions check stays green.
      const locked = JSON.parse(readFileSync(join(root, 'baton.versions.json'), 'utf8'));
      expect(locked.tools['expense-approval'].states).to.deep.equal(['askName', 'declined', 'done']);
      const run = mocha(ROOT, [join(root, 'test/machines/tools/expense-approval.test.ts')]);
      expect(run.status, run.stdout + run.stderr).to.equal(0);
      expect(run.stdout).to.include('name: decline');
      expect(run.stdout).to.include('greets the user by the name they give');
    });

    it('never overwrites a file and refuses a name that is not lower-case words joined by dashes', () => {
      expect(baton(['new', 'expense-approval', '--root', root]).status).to.equal(78);
      expect(baton(['new', 'Expense_Approval', '--root', root]).status).to.equal(78);
    });
  });

  describe('--project', () => {
    let dir = '';
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'baton-new-project-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('starts a project that depends on the package, whose test passes', () => {
      const project = join(dir, 'my-tools');
      const made = baton(['new', '--project', project, 'expense-approval']);
      expect(made.status, made.stderr).to.equal(0);
      const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
      // Made from this checkout: the dependency is the checkout itself.
      expect(pkg.dependencies['baton-mcp']).to.equal(`file:${ROOT.replace(/\/$/, '')}`);
      expect(pkg.baton).to.deep.equal({ tools: 'tools/index.ts' });
      expect(pkg.scripts).to.include({
        start: 'baton serve',
        dev: 'baton dev',
        test: 'baton versions check && tsc --noEmit && mocha',
      });
      // Written with the project, so its first `npm test` passes the versions check.
      const locked = JSON.parse(readFileSync(join(project, 'baton.versions.json'), 'utf8'));
      expect(Object.keys(locked.tools)).to.deep.equal(['expense-approval']);
      expect(locked.tools['expense-approval'].states).to.deep.equal(['askName', 'declined', 'done']);
      expect(readFileSync(join(project, 'tools/index.ts'), 'utf8')).to.include('expenseApprovalTool,');
      // node_modules as `npm install` would leave it, with this checkout standing in for `baton-mcp`.
      const modules = join(project, 'node_modules');
      mkdirSync(modules);
      for (const name of readdirSync(join(ROOT, 'node_modules'))) {
        if (!name.startsWith('.')) symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
      }
      const shim = join(modules, 'baton-mcp');
      mkdirSync(shim);
      writeFileSync(
        join(shim, 'package.json'),
        JSON.stringify({
          name: 'baton-mcp',
          type: 'module',
          exports: { '.': './index.ts', './testing': './testing.ts' },
        }),
      );
      writeFileSync(join(shim, 'index.ts'), `export * from '${join(ROOT, 'server/engine/index.ts')}';\n`);
      writeFileSync(join(shim, 'testing.ts'), `export * from '${join(ROOT, 'server/testing/index.ts')}';\n`);
      const run = mocha(project, []);
      expect(run.status, run.stdout + run.stderr).to.equal(0);
      expect(run.stdout).to.include('expense-approval: every path of the machine');
      // What `npm test` runs first: the lockfile written with the project matches the tool.
      const check = baton(['versions', 'check'], project);
      expect(check.status, check.stderr).to.equal(0);
      expect(check.stdout).to.equal('1 tools as recorded in baton.versions.json.\n');
    });

    it('adds a tool to the tools module package.json names, without --tools', () => {
      const project = join(dir, 'my-tools');
      const made = baton(['new', 'approve-refund'], project);
      expect(made.status, made.stderr).to.equal(0);
      const index = readFileSync(join(project, 'tools/index.ts'), 'utf8');
      expect(index).to.include("import { approveRefundTool } from './approve-refund.js';");
      expect(index).to.match(/^ {2}approveRefundTool,$/m);
      expect(readFileSync(join(project, 'test/approve-refund.test.ts'), 'utf8')).to.include(
        "from '../tools/approve-refund.js'",
      );
      const run = mocha(project, [join(project, 'test/approve-refund.test.ts')]);
      expect(run.status, run.stdout + run.stderr).to.equal(0);
      // A new tool has no flow in flight: recorded as it is written, and the check still passes.
      expect(made.stdout).to.include('wrote baton.versions.json');
      const check = baton(['versions', 'check'], project);
      expect(check.status, check.stderr).to.equal(0);
      expect(check.stdout).to.equal('2 tools as recorded in baton.versions.json.\n');
    });

    it('refuses a folder that is not empty', () => {
      expect(baton(['new', '--project', join(dir, 'my-tools')]).status).to.equal(78);
    });
  });
});
