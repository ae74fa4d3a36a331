import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toStateDiagram } from '../../server/docs-site/index.js';
import { releaseMachine } from '../../machines/examples/release.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function baton(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/cli/cli.ts', ...args],
      { cwd: ROOT },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('baton docs and baton diagram', function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-cli-docs-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('`diagram <tool>` prints the Mermaid state diagram, `--sequence` the example conversation', async () => {
    const state = await baton('diagram', 'release');
    expect(state.code).to.equal(0);
    expect(state.stdout).to.equal(toStateDiagram(releaseMachine));
    const sequence = await baton('diagram', 'test_input_required_result_multi_round', '--sequence');
    expect(sequence.stdout.startsWith('sequenceDiagram\n')).to.equal(true);
    const unknown = await baton('diagram', 'nope');
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.include('No tool, prompt or resource named "nope"').and.include('release');
  });

  it('`docs --out` writes the pages, and `docs --check` fails (exit 1) once one is changed', async () => {
    expect((await baton('docs', '--out', dir)).code).to.equal(0);
    expect((await readdir(dir)).sort()).to.include.members(['index.md', 'release.md']);
    expect((await baton('docs', '--check', '--out', dir)).code).to.equal(0);
    await writeFile(join(dir, 'release.md'), 'edited by hand\n');
    const check = await baton('docs', '--check', '--out', dir);
    expect(check.code).to.equal(1);
    expect(check.stderr).to.include('changed: ').and.include('run `npx baton docs`');
  });
});
