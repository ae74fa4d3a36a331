import { expect } from 'chai';
import { and, fromPromise, not, or, setup, spawnChild, stateIn } from 'xstate';
import { askForm, structuralVersion } from '../../../server/engine/index.js';
import { releaseMachine, type DeployInput } from '../../../machines/examples/release.js';
import { surveyMachine } from '../fixtures/machines.js';

const base = () => structuralVersion(surveyMachine('base'));

/** A two-state machine whose pieces the tests vary one at a time. */
function tiny(options: { event?: string; target?: string; guard?: string; src?: string; version?: string } = {}) {
  return setup({
    guards: { ok: () => true, other: () => true },
    actors: { fetch: fromPromise(async () => 1), load: fromPromise(async () => 2) },
  }).createMachine({
    id: 'tiny',
    ...(options.version ? { version: options.version } : {}),
    initial: 'a',
    states: {
      a: { on: { [options.event ?? 'GO']: { target: options.target ?? 'b', guard: (options.guard ?? 'ok') as 'ok' } } },
      b: { invoke: { src: (options.src ?? 'fetch') as 'fetch', onDone: 'c' } },
      c: { type: 'final' },
    },
  });
}

describe('structuralVersion', () => {
  it('is a short base64url string', () => {
    expect(base()).to.match(/^[A-Za-z0-9_-]{12}$/);
  });

  it('is the same for two separately built identical machines', () => {
    const a = surveyMachine('base');
    const b = surveyMachine('base');
    expect(a).to.not.equal(b);
    expect(structuralVersion(a)).to.equal(structuralVersion(b));
    expect(structuralVersion(tiny())).to.equal(structuralVersion(tiny()));
  });

  it('does not change when only question texts, descriptions or meta change', () => {
    expect(structuralVersion(surveyMachine('reworded'))).to.equal(base());
  });

  it('does not change when actor implementations are provided', () => {
    const provided = releaseMachine.provide({
      actors: { deploy: fromPromise<{ deploymentId: string }, DeployInput>(async () => ({ deploymentId: 'x' })) },
    });
    expect(structuralVersion(provided)).to.equal(structuralVersion(releaseMachine));
  });

  it('changes when a state is added', () => {
    expect(structuralVersion(surveyMachine('extra-state'))).to.not.equal(base());
  });

  it('changes when a state is renamed', () => {
    expect(structuralVersion(surveyMachine('renamed'))).to.not.equal(base());
  });

  it('changes when a transition is retargeted', () => {
    expect(structuralVersion(surveyMachine('retargeted'))).to.not.equal(base());
    expect(structuralVersion(tiny({ target: 'c' }))).to.not.equal(structuralVersion(tiny()));
  });

  it('changes when a state handles a new event', () => {
    expect(structuralVersion(surveyMachine('new-event'))).to.not.equal(base());
    expect(structuralVersion(tiny({ event: 'START' }))).to.not.equal(structuralVersion(tiny()));
  });

  it('changes when a named guard or an invoked actor source changes', () => {
    expect(structuralVersion(tiny({ guard: 'other' }))).to.not.equal(structuralVersion(tiny()));
    expect(structuralVersion(tiny({ src: 'load' }))).to.not.equal(structuralVersion(tiny()));
  });

  it('changes when a guard name inside and/or/not changes, or a combinator changes', () => {
    const build = (guard: unknown) =>
      setup({ guards: { a: () => true, b: () => true, c: () => true } }).createMachine({
        id: 'g',
        initial: 'x',
        states: { x: { on: { GO: { target: 'y', guard: guard as 'a' } } }, y: {} },
      });
    const versions = [
      and(['a', 'b']),
      and(['a', 'c']),
      or(['a', 'b']),
      and(['a', not('b')]),
      and(['a', stateIn('#g.y')]),
      and(['a', stateIn('#g.x')]),
    ].map((guard) => structuralVersion(build(guard)));
    expect(new Set(versions).size).to.equal(versions.length);
    expect(structuralVersion(build(and(['a', 'b'])))).to.equal(versions[0]);
  });

  it('changes when a named action or a spawned actor name changes', () => {
    const build = (entry: unknown, action: string) =>
      setup({
        actions: { log: () => {}, notify: () => {} },
        actors: { fetch: fromPromise(async () => 1), load: fromPromise(async () => 2) },
      }).createMachine({
        id: 'acts',
        initial: 'x',
        states: { x: { entry: entry as never, on: { GO: { target: 'y', actions: action as 'log' } } }, y: {} },
      });
    const versions = [
      build(spawnChild('fetch', { id: 'w' }), 'log'),
      build(spawnChild('load', { id: 'w' }), 'log'),
      build(spawnChild('fetch', { id: 'w' }), 'notify'),
      build('log', 'log'),
    ].map(structuralVersion);
    expect(new Set(versions).size).to.equal(versions.length);
  });

  it('changes when a field of a context written as an object is renamed, not when its value changes', () => {
    const build = (context: Record<string, unknown>) =>
      setup({}).createMachine({ id: 'c', context, initial: 'x', states: { x: {} } });
    expect(structuralVersion(build({ email: '' }))).to.not.equal(structuralVersion(build({ mail: '' })));
    expect(structuralVersion(build({ email: '' }))).to.equal(structuralVersion(build({ email: 'x' })));
  });

  it("changes when the machine's declared version changes", () => {
    expect(structuralVersion(tiny({ version: '2' }))).to.not.equal(structuralVersion(tiny({ version: '1' })));
  });

  it('changes when an input key changes (the answer events are named after it)', () => {
    const build = (key: string) =>
      setup({}).createMachine({
        id: 'k',
        initial: 'ask',
        states: {
          ask: askForm({
            key,
            message: 'Q?',
            schema: { type: 'object', properties: {} },
            onAccept: 'done',
            onDecline: 'done',
          }),
          done: { type: 'final' },
        },
      });
    expect(structuralVersion(build('one'))).to.not.equal(structuralVersion(build('two')));
    expect(structuralVersion(build('one'))).to.equal(structuralVersion(build('one')));
  });
});
