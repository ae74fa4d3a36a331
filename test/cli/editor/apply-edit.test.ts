/**
 * Editor edits applied to the text of the examples' own sources (read, never written): the new
 * text keeps every untouched line, is read back by the parser with the edit in it, and a JSON
 * machine file stays JSON. Edits naming what the machine lacks, or with fields the model does not
 * know, are refused.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { applyEdit } from '../../../server/cli/editor/apply-edit.js';
import { EditRefused, readEdit } from '../../../server/cli/editor/editor-edit.js';
import { machineOutline } from '../../../server/cli/editor/machine-outline.js';
import { findMachine, type SourceKind } from '../../../server/cli/editor/statechart-source.js';
import { REPO } from '../../machines/temp-copies.js';

const release = readFileSync(join(REPO, 'machines/examples/release.ts'), 'utf8');
const feedback = readFileSync(join(REPO, 'machines/examples/collect-feedback.machine.json'), 'utf8');

function edit(text: string, kind: SourceKind, id: string, body: unknown): string {
  return applyEdit(text, kind, findMachine(text, kind, id)!, readEdit(body));
}
function outline(text: string, kind: SourceKind, id: string) {
  return machineOutline(findMachine(text, kind, id)!, id);
}
/** Lines of `after` that `before` does not have. */
function added(before: string, after: string): string[] {
  const old = new Set(before.split('\n'));
  return after.split('\n').filter((line) => !old.has(line));
}

describe('applyEdit (editor edits through the parser)', () => {
  it('adds a question state to a toolSetup machine, declaring the question beside the others', () => {
    const next = edit(release, 'ts', 'release', {
      op: 'add-question',
      parent: [],
      name: 'approve',
      question: {
        key: 'approval',
        kind: 'form',
        message: 'Does the board approve?',
        fields: [
          { name: 'approved', type: 'boolean', required: true, title: 'Approved' },
          { name: 'board', type: 'enum', required: false, options: ['cab', 'security'] },
        ],
      },
      targets: { accept: ['deploying'], decline: ['cancelled'], cancel: ['cancelled'] },
    });
    const states = outline(next, 'ts', 'release').states;
    expect(states.find((s) => s.id === 'approve')).to.include({ question: 'approval', type: 'atomic' });
    expect(next).to.include("    approval: {\n      kind: 'form',\n      message: 'Does the board approve?',");
    expect(next).to.include("board: { type: 'string', enum: ['cab', 'security'] }");
    expect(next).to.include("meta: { 'baton.input': { key: 'approval' } },");
    // Every line of the original is still there, comments included.
    expect(release.split('\n').filter((line) => !next.includes(line))).to.deep.equal([]);
  });

  it('re-targets one transition, changing only its line', () => {
    const next = edit(release, 'ts', 'release', {
      op: 'retarget-transition',
      from: ['confirm'],
      transition: ['on', 'answer.confirm.decline', 0],
      to: ['failed'],
    });
    expect(added(release, next)).to.deep.equal(["        'answer.confirm.decline': 'failed',"]);
  });

  it('renames a state and every transition that targets it', () => {
    const next = edit(release, 'ts', 'release', { op: 'rename-state', path: ['failed'], name: 'broken' });
    expect(added(release, next)).to.deep.equal(["        onError: 'broken',", '    broken: {']);
  });

  it('adds after, onDone and event transitions', () => {
    let next = edit(release, 'ts', 'release', {
      op: 'add-transition',
      from: ['deploying'],
      trigger: { type: 'after', delay: 60000 },
      to: ['failed'],
    });
    next = edit(next, 'ts', 'release', { op: 'add-state', parent: [], name: 'paused' });
    next = edit(next, 'ts', 'release', {
      op: 'add-transition',
      from: ['paused'],
      trigger: { type: 'event', event: 'resume' },
      to: ['deploying'],
    });
    const rows = outline(next, 'ts', 'release').transitions.map((t) => `${t.from.join('.')} ${t.trigger} ${t.targets}`);
    expect(rows).to.include.members(['deploying after 60000 failed', 'paused resume deploying']);
  });

  it('keeps a JSON machine file JSON, with the question whole in its meta', () => {
    let next = edit(feedback, 'json', 'collectFeedback', {
      op: 'add-question',
      parent: [],
      name: 'followUp',
      question: {
        key: 'follow',
        kind: 'form',
        message: 'Anything else?',
        fields: [{ name: 'more', type: 'string', required: true }],
      },
      targets: { accept: ['thanked'], decline: ['thanked'], cancel: ['thanked'] },
    });
    next = edit(next, 'json', 'collectFeedback', { op: 'set-final', path: ['triage'], final: true });
    const json = JSON.parse(next);
    expect(json.states.followUp.meta['baton.input']).to.deep.include({ key: 'follow', kind: 'form' });
    expect(json.states.followUp.on['answer.follow.accept']).to.equal('thanked');
    expect(json.states.triage.type).to.equal('final');
    expect(next).to.include('    "thanked": { "type": "final", "output": { "outcome": "thanked" } },');
  });

  it('adds an invoked step: a state invoking an actor by name, with its onDone and onError', () => {
    const next = edit(release, 'ts', 'release', {
      op: 'add-invoke',
      parent: [],
      name: 'notifying',
      src: 'deploy',
      targets: { done: ['released'], error: ['failed'] },
    });
    const after = outline(next, 'ts', 'release');
    expect(after.states.find((s) => s.id === 'notifying')).to.include({ type: 'atomic', invokes: 1 });
    const from = after.transitions.filter((t) => t.from.join('.') === 'notifying');
    expect(from.map((t) => [t.trigger, t.targets])).to.deep.equal([
      ['invoke onDone', ['released']],
      ['invoke onError', ['failed']],
    ]);
    expect(next).to.include("notifying: {\n      invoke: {\n        src: 'deploy',\n        onDone: 'released',");
    expect(release.split('\n').filter((line) => !next.includes(line))).to.deep.equal([]);
    // Without targets it is the invoke alone, and a transition added later lands in it.
    const bare = edit(release, 'ts', 'release', { op: 'add-invoke', parent: [], name: 'waiting', src: 'deploy' });
    expect(bare).to.match(/waiting: \{\n\s+invoke: \{\n\s+src: 'deploy'\n\s+\}\n\s+\}/);
    const linked = edit(bare, 'ts', 'release', {
      op: 'add-transition',
      from: ['waiting'],
      trigger: { type: 'error' },
      to: ['failed'],
    });
    expect(outline(linked, 'ts', 'release').transitions.find((t) => t.from[0] === 'waiting')).to.deep.include({
      path: ['invoke', 0, 'onError', 0],
      targets: ['failed'],
    });
  });

  it('adds an invoked step to a JSON machine file, which stays JSON', () => {
    const next = edit(feedback, 'json', 'collectFeedback', {
      op: 'add-invoke',
      parent: [],
      name: 'filing',
      src: 'fileFeedback',
      targets: { done: ['thanked'] },
    });
    expect(JSON.parse(next).states.filing).to.deep.equal({ invoke: { src: 'fileFeedback', onDone: 'thanked' } });
  });

  it('refuses edits naming what the machine does not have', () => {
    const refused = (body: unknown) => expect(() => edit(release, 'ts', 'release', body)).to.throw(EditRefused);
    refused({ op: 'rename-state', path: ['nowhere'], name: 'x' });
    refused({ op: 'add-state', parent: [], name: 'confirm' });
    refused({ op: 'delete-transition', from: ['confirm'], transition: ['on', 'answer.confirm.accept', 7] });
    refused({ op: 'add-transition', from: ['confirm'], trigger: { type: 'error' }, to: ['failed'] });
    refused({ op: 'add-invoke', parent: [], name: 'deploying', src: 'deploy' });
    refused({ op: 'add-invoke', parent: [], name: 'x', src: 'deploy', targets: { done: ['nowhere'] } });
  });

  it('refuses a body with fields it does not know, or names that are not names', () => {
    expect(() => readEdit({ op: 'add-state', parent: [], name: 'x', file: '/etc/passwd' })).to.throw(
      EditRefused,
      /file/,
    );
    expect(() => readEdit({ op: 'add-state', parent: [], name: "x'); process.exit(); ('" })).to.throw(EditRefused);
    expect(() => readEdit({ op: 'rename-state', path: ['../../etc'], name: 'x' })).to.throw(EditRefused);
    // An actor is named, never written: no code, and only the outcomes an invoke has.
    expect(() => readEdit({ op: 'add-invoke', parent: [], name: 'x', src: 'fromPromise(() => 1)' })).to.throw(
      EditRefused,
    );
    expect(() => readEdit({ op: 'add-invoke', parent: [], name: 'x', src: 'a', targets: { accept: ['y'] } })).to.throw(
      EditRefused,
      /accept/,
    );
  });
});
