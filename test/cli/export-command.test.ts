/**
 * `baton export TOOL --json` (issue 39, "Round trip with Stately"): the machine as XState JSON,
 * questions included as data, which XState and the Stately editor's parser read whole; and a
 * JSON machine file changed in an editor is a tool Baton serves, its question unchanged byte for
 * byte through export, the change and the import.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { createMachine } from 'xstate';
import { collectFeedbackTool, feedbackMachineFrom } from '../../machines/examples/collect-feedback.js';
import { releaseMachine } from '../../machines/examples/release.js';
import { machineToJson } from '../../server/engine/authoring/machine-export.js';
import { INPUT_META, ToolRegistry } from '../../server/engine/index.js';
import { accept, runFlow } from '../../server/testing/index.js';
import { parsedMachine, readMachine } from '../machines/statechart-reading.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FEEDBACK_JSON = join(ROOT, 'machines/examples/collect-feedback.machine.json');

function baton(args: string[], cwd: string): string {
  return execFileSync(process.execPath, [join(ROOT, 'bin/baton.js'), ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 50_000,
  });
}

const questionOf = (json: any, state: string) => JSON.stringify(json.states[state].meta[INPUT_META]);

describe('baton export --json', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'baton-export-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a TypeScript tool as XState JSON that XState builds and the Stately parser reads whole', function () {
    this.timeout(60_000); // a CLI process loading the examples through tsx
    const text = baton(['export', 'release', '--json'], ROOT);
    const json = JSON.parse(text);
    expect(json).to.deep.equal(machineToJson(releaseMachine));
    // Questions as data: the tag, and the question's kind, key and schema (its message is code).
    expect(json.states.confirm.tags).to.deep.equal(['baton.input', 'baton.singleUse']);
    expect(json.states.confirm.meta[INPUT_META]).to.include({ kind: 'form', key: 'confirm' });
    expect(json.states.confirm.meta[INPUT_META].computed).to.deep.equal(['message']);
    expect(Object.keys(createMachine(json).root.states)).to.deep.equal(Object.keys(releaseMachine.root.states));
    const reading = readMachine(releaseMachine, parsedMachine(text, 'release', 'json'));
    expect(reading.gaps).to.deep.equal([]);
    expect([reading.recovered, reading.questionsRecovered]).to.deep.equal([reading.states, reading.questions]);
    expect(reading.questions).to.be.greaterThan(1);
  });

  it('writes a JSON machine back as the JSON it was built from', function () {
    this.timeout(60_000);
    const out = join(dir, 'collect-feedback.json');
    expect(baton(['export', 'collect-feedback', '--json', '--out', out], ROOT)).to.equal('');
    expect(JSON.parse(readFileSync(out, 'utf8'))).to.deep.equal(JSON.parse(readFileSync(FEEDBACK_JSON, 'utf8')));
  });

  it('keeps a question byte for byte through export, a change in the editor and the import', async () => {
    const exported = machineToJson(collectFeedbackTool.machine) as any;
    // The change an author makes in the editor: the happy ending renamed, and a new final state
    // for a skipped rating; the questions are not touched.
    const changed = JSON.parse(JSON.stringify(exported));
    changed.states.stored = { ...changed.states.thanked, output: { outcome: 'thanked' } };
    delete changed.states.thanked;
    changed.states.saving.invoke.onDone.target = 'stored';
    changed.states.noRating = { type: 'final', output: { outcome: 'skipped' } };
    changed.states.rate.on['answer.rating.decline'] = 'noRating';
    const file = `${JSON.stringify(changed, null, 2)}\n`;

    // Imported: the file is the tool's machine, with collect-feedback.ts's implementations.
    const machine = feedbackMachineFrom(JSON.parse(file));
    const tool = { ...collectFeedbackTool, machine };
    expect(() => new ToolRegistry([tool])).not.to.throw();
    const run = await runFlow(tool, { subject: 'the 2.4.0 release' }, { rating: accept({ rating: 5 }) });
    expect(run.outcome).to.equal('complete');
    expect(run.asked).to.deep.equal(['rating']);

    // Exported again: the same file, byte for byte, and so the same questions.
    const again = `${JSON.stringify(machineToJson(machine), null, 2)}\n`;
    expect(again).to.equal(file);
    for (const state of ['rate', 'askWhatWentWrong']) {
      expect(questionOf(JSON.parse(again), state)).to.equal(questionOf(exported, state));
    }
  });
});
