import { expect } from 'chai';
import {
  assign,
  cancel,
  createMachine,
  enqueueActions,
  fromCallback,
  fromObservable,
  fromPromise,
  raise,
  sendParent,
  sendTo,
  setup,
} from 'xstate';
import { expectAsked, expectComplete } from '../fixtures/flow.js';
import { askText, roundsOf, text } from './rounds.js';

const done = { type: 'final' as const };

describe('XState constructs: actors and actions across rounds', () => {
  it('fromPromise before and after a question runs once each, inside its round', async () => {
    const calls: string[] = [];
    const machine = setup({
      actors: {
        work: fromPromise(async ({ input }: { input: { step: string } }) => {
          calls.push(input.step);
          return input.step.toUpperCase();
        }),
      },
    }).createMachine({
      id: 'm',
      initial: 'before',
      context: { results: [] as string[] },
      output: ({ context }) => context.results,
      states: {
        before: {
          invoke: {
            src: 'work',
            input: { step: 'before' },
            onDone: {
              target: 'ask',
              actions: assign({ results: ({ context, event }) => [...context.results, event.output] }),
            },
          },
        },
        ask: askText('ask', 'after'),
        after: {
          invoke: {
            src: 'work',
            input: { step: 'after' },
            onDone: {
              target: 'end',
              actions: assign({ results: ({ context, event }) => [...context.results, event.output] }),
            },
          },
        },
        end: done,
        declined: done,
      },
    });
    const driver = roundsOf(machine);
    const first = await driver.ask();
    expect(expectComplete(await driver.answer(first, { ask: text('x') }))).to.deep.equal(['BEFORE', 'AFTER']);
    expect(calls).to.deep.equal(['before', 'after']);
  });

  it('fromCallback and fromObservable in states the flow leaves before asking', async () => {
    let stopped = 0;
    const machine = setup({
      actors: {
        ticker: fromCallback(({ sendBack }) => {
          const timer = setTimeout(() => sendBack({ type: 'TICK' }), 1);
          return () => {
            clearTimeout(timer);
            stopped += 1;
          };
        }),
        numbers: fromObservable(
          () =>
            ({
              subscribe: (observer: { next: (n: number) => void; complete: () => void }) => {
                observer.next(1);
                observer.complete();
                return { unsubscribe: () => {} };
              },
            }) as never,
        ),
      },
    }).createMachine({
      id: 'm',
      initial: 'ticking',
      states: {
        ticking: { invoke: { src: 'ticker' }, on: { TICK: 'observing' } },
        observing: { invoke: { src: 'numbers', onDone: 'ask' } },
        ask: askText('ask', 'end'),
        end: done,
        declined: done,
      },
    });
    const driver = roundsOf(machine);
    const first = await driver.ask();
    expectComplete(await driver.answer(first, { ask: text('x') }));
    expect(stopped).to.equal(1);
  });

  it('sendTo and sendParent between a parent and a child within a round', async () => {
    const echo = createMachine({
      id: 'echo',
      on: { PING: { actions: sendParent({ type: 'PONG' }) } },
    });
    const machine = setup({ actors: { echo } }).createMachine({
      id: 'm',
      initial: 'ask',
      states: {
        ask: askText('ask', 'talking'),
        talking: {
          invoke: { src: 'echo', id: 'echo' },
          entry: sendTo('echo', { type: 'PING' }),
          on: { PONG: 'end' },
        },
        end: done,
        declined: done,
      },
    });
    const driver = roundsOf(machine);
    expectComplete(await driver.answer(await driver.ask(), { ask: text('x') }));
  });

  it('raise, enqueueActions and cancel of a delayed raise before a question', async () => {
    const machine = setup({}).createMachine({
      id: 'm',
      initial: 'start',
      context: { log: [] as string[] },
      output: ({ context }) => context.log,
      states: {
        start: {
          entry: [
            raise({ type: 'LATE' }, { id: 'late', delay: 50_000 }),
            cancel('late'),
            enqueueActions(({ enqueue }) => {
              enqueue.assign({ log: ({ context }: { context: { log: string[] } }) => [...context.log, 'enqueued'] });
              enqueue.raise({ type: 'GO' });
            }),
          ],
          on: {
            GO: { target: 'ask', actions: assign({ log: ({ context }) => [...context.log, 'raised'] }) },
            LATE: 'end',
          },
        },
        ask: askText('ask', 'end'),
        end: done,
        declined: done,
      },
    });
    const driver = roundsOf(machine, { timeBudgetMs: 60_000 });
    const first = expectAsked(await driver.ask(), ['ask']);
    expect(expectComplete(await driver.answer(first, { ask: text('x') }))).to.deep.equal(['enqueued', 'raised']);
  });
});
