import { expect } from 'chai';
import { assign, setup } from 'xstate';
import { ToolRegistry, formContent } from '../../../server/engine/index.js';
import { expectAsked, expectComplete } from '../fixtures/flow.js';
import { askText, onEachXStatePath, roundsOf, text, toolOf } from './rounds.js';

onEachXStatePath('XState constructs: author traps', () => {
  describe('an always deadline guard on an input state', () => {
    let expired = false;
    const machine = setup({ guards: { expired: () => expired } }).createMachine({
      id: 'm',
      initial: 'ask',
      output: ({ event }) => event.output,
      states: {
        ask: { ...askText('ask', 'done'), always: { guard: 'expired', target: 'late' } },
        done: { type: 'final', output: { late: false } },
        late: { type: 'final', output: { late: true } },
        declined: { type: 'final' },
      },
    });

    it('is not re-checked on a retry without answers (XState evaluates always only after an event)', async () => {
      expired = false;
      const driver = roundsOf(machine);
      const first = await driver.ask();
      expired = true;
      expectAsked(await driver.answer(first, {}), ['ask']);
    });

    it('gets a start-up warning naming the state', () => {
      const registry = new ToolRegistry([toolOf(machine)]);
      expect(registry.warnings).to.have.length(1);
      expect(registry.warnings[0]).to.include('state "m.ask"').and.to.include('always');
    });

    it('gets no warning when the deadline is checked in the answer transition', () => {
      const fixed = setup({ guards: { expired: () => expired } }).createMachine({
        id: 'm',
        initial: 'ask',
        states: {
          ask: askText('ask', [{ guard: 'expired', target: 'late' }, { target: 'done' }]),
          done: { type: 'final' },
          late: { type: 'final' },
          declined: { type: 'final' },
        },
      });
      expect(new ToolRegistry([toolOf(fixed)]).warnings).to.deep.equal([]);
    });
  });

  describe('renaming a context field', () => {
    const build = (field: 'email' | 'mail') =>
      setup({}).createMachine({
        id: 'm',
        initial: 'first',
        context: { [field]: '' } as Record<string, string>,
        output: ({ context }) => context,
        states: {
          first: askText('first', {
            target: 'second',
            actions: assign({ [field]: ({ event }) => formContent<{ text: string }>(event).text }),
          }),
          second: askText('second', 'done'),
          done: { type: 'final' },
          declined: { type: 'final' },
        },
      });

    it('restarts flows in flight when the context is written as an object (its field names are in the version)', async () => {
      const before = roundsOf(build('email'));
      const first = await before.ask();
      const second = expectAsked(await before.answer(first, { first: text('a@example.com') }), ['second']);
      const after = roundsOf(build('mail'));
      // The new machine starts over instead of reading an old context without `mail`.
      const restarted = expectAsked(await after.answer(second, { second: text('x') }), ['first']);
      const next = expectAsked(await after.answer(restarted, { first: text('b@example.com') }), ['second']);
      expect(expectComplete(await after.answer(next, { second: text('y') }))).to.deep.equal({ mail: 'b@example.com' });
    });
  });
});
