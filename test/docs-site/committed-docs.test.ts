import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  compareDocsFiles,
  DOCS_TOOLS_DIR,
  renderDocsFiles,
  toStateDiagram,
  writeDocsFiles,
} from '../../server/docs-site/index.js';
import { releaseMachine } from '../../machines/examples/release.js';
import { committedDocsContent } from '../../server/cli/docs-command.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('committed docs (docs/tools)', () => {
  let files: Map<string, string>;
  before(async () => {
    files = await renderDocsFiles(committedDocsContent());
  });

  it('match what the machines generate (if not: run `npx baton docs` and commit the result)', async () => {
    const differences = await compareDocsFiles(join(ROOT, DOCS_TOOLS_DIR), files);
    expect(differences, 'docs/tools is out of date: run `npx baton docs`').to.deep.equal([]);
  });

  it('have an index and one page for every example tool', () => {
    // Derived from what is served, so adding a tool does not break this test (issue 12).
    const names = committedDocsContent()
      .tools.map((tool) => tool.name)
      .sort();
    expect(names).to.include.members(['collect-feedback', 'connect-payments', 'provision-database', 'release']);
    expect([...files.keys()]).to.deep.equal(['index.md', ...names.map((name) => `${name}.md`)]);
    for (const name of names) expect(files.get('index.md')).to.include(`(${name}.md)`);
  });

  it("include the README's diagram of the release tool, as the converter draws it today", async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    expect(readme, 'README.md: paste `npx baton diagram release` into its mermaid block').to.include(
      `\`\`\`mermaid\n${toStateDiagram(releaseMachine)}\`\`\``,
    );
  });

  it('are the same when generated twice', async () => {
    const again = await renderDocsFiles(committedDocsContent());
    expect([...again]).to.deep.equal([...files]);
  });

  describe('the check', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'baton-docs-'));
      await writeDocsFiles(dir, files);
    });
    afterEach(() => rm(dir, { recursive: true, force: true }));

    it('finds nothing in a freshly written folder', async () => {
      expect(await compareDocsFiles(dir, files)).to.deep.equal([]);
    });

    it('reports a changed, a missing and a stale page', async () => {
      await writeFile(join(dir, 'release.md'), `${await readFile(join(dir, 'release.md'), 'utf8')}edited\n`);
      await rm(join(dir, 'index.md'));
      await writeFile(join(dir, 'old-tool.md'), 'gone');
      expect(await compareDocsFiles(dir, files)).to.deep.equal([
        { file: 'index.md', problem: 'missing' },
        { file: 'release.md', problem: 'changed' },
        { file: 'old-tool.md', problem: 'stale' },
      ]);
    });

    it('is cleared by writing again, which also removes stale pages', async () => {
      await writeFile(join(dir, 'old-tool.md'), 'gone');
      await writeDocsFiles(dir, files);
      expect(await compareDocsFiles(dir, files)).to.deep.equal([]);
    });
  });
});
