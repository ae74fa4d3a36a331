import { expect } from 'chai';
import { and, createMachine, fromPromise, not, setup } from 'xstate';
import { machineProblems } from '../../../server/engine/index.js';
import { missingImplementations } from '../../../server/engine/catalogue/implementation-checks.js';
import machineJson from '../../../machines/examples/collect-feedback.machine.json' with { type: 'json' };
import { collectFeedbackMachine } from '../../../machines/examples/collect-feedback.js';

/** A machine config as a visual editor exports it: every implementation named, none given. */
const exported = {
  id: 'drawn',
  initial: 'idle',
  entry: 'logStart',
  states: {
    idle: {
      exit: [{ type: 'logLeave', params: { why: 'go' } }],
      on: { GO: { target: 'busy', guard: 'canGo', actions: ['track'] } },
      after: { patience: 'busy' },
    },
    busy: {
      invoke: { src: 'doWork', onDone: 'done' },
      always: { guard: { type: 'isStuck' }, target: 'done' },
    },
    done: { type: 'final' },
  },
} as const;

describe('missingImplementations', () => {
  it('names every action, guard, actor and delay a JSON config refers to without an implementation', () => {
    const problems = missingImplementations('tool "drawn"', createMachine(exported as any));
    expect(problems.map((p) => /the (\w+) "(\w+)"/.exec(p)!.slice(1).join(' '))).to.have.members([
      'action logStart',
      'action logLeave',
      'action track',
      'guard canGo',
      'delay patience',
      'actor doWork',
      'guard isStuck',
    ]);
    expect(problems.find((p) => p.includes('"canGo"'))).to.match(
      /^tool "drawn", state "drawn\.idle": the guard "canGo" has no implementation\. Implement it by name in setup\(\{ guards: /,
    );
  });

  it('finds nothing once every name is implemented, by setup or by provide', () => {
    const implementations = {
      actions: { logStart: () => {}, logLeave: () => {}, track: () => {} },
      guards: { canGo: () => true, isStuck: () => false },
      actors: { doWork: fromPromise(async () => 1) },
      delays: { patience: 100 },
    };
    expect(missingImplementations('t', createMachine(exported as any).provide(implementations as any))).to.deep.equal(
      [],
    );
    expect(missingImplementations('t', setup(implementations).createMachine(exported as any))).to.deep.equal([]);
  });

  it('looks inside and/not guards, and ignores inline functions and built-in actions', () => {
    const machine = createMachine({
      id: 'g',
      initial: 'x',
      states: {
        x: {
          entry: () => {},
          after: { 10: 'y' },
          on: { GO: { target: 'y', guard: and(['a', not('missing')]) } },
          invoke: { src: fromPromise(async () => 1) },
        },
        y: {},
      },
    }).provide({ guards: { a: () => true } } as any);
    const problems = missingImplementations('t', machine);
    expect(problems).to.have.length(1);
    expect(problems[0]).to.include('the guard "missing"');
  });

  it('is part of the start-up checks every registry runs', () => {
    const problems = machineProblems('tool "collect-feedback"', createMachine(machineJson as any));
    expect(problems.filter((p) => p.includes('has no implementation'))).to.have.length(5);
    expect(machineProblems('tool "collect-feedback"', collectFeedbackMachine, { subject: 'x' })).to.deep.equal([]);
  });
});
