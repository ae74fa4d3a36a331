/**
 * An edit made the way the Stately editor makes it (the parser's `modify`, which rewrites the
 * machine's object literal with recast) leaves a tool Baton serves: a new question state between
 * `confirm` and `deploying` in a copy of machines/examples/release.ts typechecks, passes the
 * start-up checks and shows in `baton diagram release`. The repository's file is never touched.
 *
 * `modify` knows states, transitions, guards, actions and invokes, not tags or meta: the
 * question's tag and meta, and its declaration in `toolSetup({ questions })`, are inserted at
 * the places the parser locates, as an editor built on it would.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { INPUT_META, INPUT_TAG, ToolRegistry, type ToolDefinition } from '../../server/engine/index.js';
import { addTypeCheckFiles, typeErrors } from '../helpers/type-check.js';
import { parsedMachine, readMachine } from './statechart-reading.js';
import { REPO, tempFolder, withRepoImports } from './temp-copies.js';

const original = readFileSync(join(REPO, 'machines/examples/release.ts'), 'utf8');

/** `text` with the parser's edit applied (one replacement of the machine's config). */
function applied(text: string, result: { configEdit?: { range: Array<{ index: number }>; newText: string } }) {
  const edit = result.configEdit!;
  return text.slice(0, edit.range[0]!.index) + edit.newText + text.slice(edit.range[1]!.index);
}

function insertAt(text: string, index: number, insert: string) {
  return text.slice(0, index) + insert + text.slice(index);
}

/** release.ts with an `approve` question asked after `confirm`, before `deploying`. */
function withApprovalState(text: string): string {
  const release = parsedMachine(text, 'release')!;
  let next = applied(
    text,
    release.modify(
      [
        { type: 'add_state', path: [], name: 'approve' },
        {
          type: 'reanchor_transition',
          sourcePath: ['confirm'],
          transitionPath: ['on', 'answer.confirm.accept', 0],
          newTargetPath: ['approve'],
        },
        ...(['accept', 'decline', 'cancel'] as const).map((outcome) => ({
          type: 'add_transition',
          sourcePath: ['approve'],
          targetPath: [outcome === 'accept' ? 'deploying' : 'cancelled'],
          transitionPath: ['on', `answer.approval.${outcome}`, 0],
          external: true,
        })),
      ],
      { v5: true },
    ) as never,
  );
  // The new state's object literal, where the parser found it: give it its question.
  const approve = parsedMachine(next, 'release')!
    .getAllStateNodes()
    .find((node) => node.path.join('.') === 'approve')!;
  next = insertAt(
    next,
    approve.ast.node.start + 1,
    `\n      tags: ['baton.input'],\n      meta: { 'baton.input': { key: 'approval' } },`,
  );
  // …and declare the question it asks, once, beside the others.
  const questions = next.indexOf('  questions: {\n') + '  questions: {\n'.length;
  expect(questions).to.be.greaterThan(100);
  return insertAt(
    next,
    questions,
    `    approval: {
      kind: 'form',
      message: 'Does the change-approval board approve this release?',
      schema: { type: 'object', properties: { approved: { type: 'boolean' } }, required: ['approved'] },
    },
`,
  );
}

describe('an edit through the Stately parser (modify) to a copy of release.ts', () => {
  const edited = withApprovalState(original);
  const virtual = join(REPO, 'machines/examples/release-edited.ts');
  addTypeCheckFiles({ [virtual]: edited });
  const folder = tempFolder();
  folder.write('release.ts', withRepoImports(edited, 'machines/examples'));
  // What release.ts imports beside it: its kept version 1 and the deployment both versions run.
  for (const sibling of ['release.v1.ts', 'release-deploy.ts']) {
    const text = readFileSync(join(REPO, 'machines/examples', sibling), 'utf8');
    folder.write(sibling, withRepoImports(text, 'machines/examples'));
  }
  folder.write('tools.ts', "import { releaseTool } from './release.ts';\nexport const tools = [releaseTool];\n");
  after(() => folder.remove());

  it('adds the question state between confirm and deploying, readable whole', async () => {
    const { releaseMachine } = await folder.load<{ releaseMachine: ToolDefinition['machine'] }>('release.ts');
    const approve = releaseMachine.root.states.approve!;
    expect(approve.tags).to.include(INPUT_TAG);
    expect(approve.meta[INPUT_META]).to.include({ kind: 'form', key: 'approval' });
    const reading = readMachine(releaseMachine, parsedMachine(edited, 'release'));
    expect(reading.gaps).to.deep.equal([]);
    expect([reading.recovered, reading.questionsRecovered]).to.deep.equal([9, 4]);
  });

  it('typechecks', function () {
    this.timeout(180_000); // a type check of the authoring API and XState's types
    expect(typeErrors(virtual).map((e) => `${e.line + 1}: ${e.text}`)).to.deep.equal([]);
  });

  it('passes the start-up checks (the tool registry)', async () => {
    const { releaseTool } = await folder.load<{ releaseTool: ToolDefinition }>('release.ts');
    expect(() => new ToolRegistry([releaseTool])).not.to.throw();
  });

  it('shows the new state in `baton diagram release`', function () {
    this.timeout(60_000); // a fresh CLI process loading the tools through tsx
    const diagram = execFileSync(
      process.execPath,
      [join(REPO, 'bin/baton.js'), 'diagram', 'release', '--tools', 'tools.ts'],
      {
        cwd: folder.dir,
        encoding: 'utf8',
        timeout: 50_000,
      },
    );
    expect(diagram).to.match(/\bapprove\b/);
    expect(diagram).to.match(/confirm[^\n]*-->[^\n]*approve/);
    expect(diagram).to.match(/approve[^\n]*-->[^\n]*deploying/);
  });
});
