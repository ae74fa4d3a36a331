import { expect } from 'chai';
import { assign, setup } from 'xstate';
import { expectAsked, expectComplete, expectFailed } from '../fixtures/flow.js';
import { askText, onEachXStatePath, roundsOf, startupProblems, text } from './rounds.js';

class Money {
  constructor(readonly cents: number) {}
}

/** Asks twice; `fill` runs when the first answer arrives, so the values cross a round after it. */
function carrying(fill: () => Record<string, unknown>) {
  return setup({}).createMachine({
    id: 'values',
    initial: 'first',
    context: {} as Record<string, unknown>,
    output: ({ context }) => context,
    states: {
      first: askText('first', { target: 'second', actions: assign(() => fill()) }),
      second: askText('second', 'done'),
      done: { type: 'final' },
      declined: { type: 'final' },
    },
  });
}

onEachXStatePath('XState constructs: context values across rounds', () => {
  it('carries Date, Map, Set, BigInt, NaN, -0 and shared references across a round', async () => {
    const shared = { n: 1 };
    const machine = carrying(() => ({
      when: new Date(0),
      map: new Map<unknown, unknown>([[new Date(1), 'a']]),
      set: new Set([1, 'two']),
      big: 10n ** 20n,
      nan: Number.NaN,
      minusZero: -0,
      a: shared,
      b: shared,
    }));
    // The output describes the restored context from inside the machine (BigInt cannot be JSON).
    const driver = roundsOf(
      setup({}).createMachine({
        ...(machine.config as object),
        output: ({ context }: { context: Record<string, any> }) => ({
          date: context.when instanceof Date,
          mapKeyDate: [...context.map.keys()][0] instanceof Date,
          set: [...context.set],
          big: context.big === 10n ** 20n,
          nan: Number.isNaN(context.nan),
          minusZero: Object.is(context.minusZero, -0),
          shared: context.a === context.b,
        }),
      } as never),
    );
    const first = await driver.ask();
    const second = expectAsked(await driver.answer(first, { first: text('x') }), ['second']);
    expect(expectComplete(await driver.answer(second, { second: text('y') }))).to.deep.equal({
      date: true,
      mapKeyDate: true,
      set: [1, 'two'],
      big: true,
      nan: true,
      minusZero: true,
      shared: true,
    });
  });

  it('fails the round, naming the member, when a Set holds a class instance or a function', async () => {
    const driver = roundsOf(carrying(() => ({ set: new Set([new Money(250), () => 1]) })));
    const first = await driver.ask();
    expect(expectFailed(await driver.answer(first, { first: text('x') }))).to.include('context.set member #0');
  });

  it('fails the round, naming the key, when a Map key is a class instance', async () => {
    const driver = roundsOf(carrying(() => ({ map: new Map([[new Money(1), 'one']]) })));
    const first = await driver.ask();
    expect(expectFailed(await driver.answer(first, { first: text('x') }))).to.include('context.map key #0');
  });

  it('refuses at start-up an initial context whose Set holds a function', () => {
    const machine = setup({}).createMachine({
      id: 'values',
      initial: 'first',
      context: { set: new Set([() => 1]) },
      states: { first: askText('first', 'done'), done: { type: 'final' }, declined: { type: 'final' } },
    });
    expect(startupProblems(machine).join('\n')).to.include('context.set member #0 is a function');
  });
});
