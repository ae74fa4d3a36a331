import { expect } from 'chai';
import { assign, fromCallback, fromObservable, fromPromise, raise, sendTo, setup } from 'xstate';
import { machineProblems } from '../../../server/engine/index.js';
import { expectAsked, expectComplete, expectFailed } from '../fixtures/flow.js';
import {
  answerInTurn,
  askText,
  counter,
  countOf,
  onEachXStatePath,
  roundsOf,
  startupProblems,
  text,
} from './rounds.js';

const endless = fromCallback(() => () => {});
const ticking = fromObservable(() => ({ subscribe: () => ({ unsubscribe: () => {} }) }) as never);

/** `wrapper` holds the question `ask`; extra config on the wrapper is what each case varies. */
function around(wrapper: Record<string, unknown>, actors: Record<string, unknown> = {}, delays = {}) {
  return setup({ actors: actors as never, delays }).createMachine({
    id: 'm',
    initial: 'outer',
    states: {
      outer: { initial: 'ask', ...wrapper, states: { ask: askText('ask', '#m.done', { onDecline: '#m.declined' }) } },
      done: { type: 'final' },
      declined: { type: 'final' },
    },
  });
}

/** A parallel state: region `q` asks, region `side` holds what each case varies. */
function beside(side: Record<string, unknown>, actors: Record<string, unknown> = {}) {
  return setup({ actors: actors as never }).createMachine({
    id: 'm',
    initial: 'both',
    states: {
      both: {
        type: 'parallel',
        onDone: 'done',
        states: {
          q: {
            initial: 'ask',
            states: { ask: askText('ask', 'answered', { onDecline: '#m.declined' }), answered: { type: 'final' } },
          },
          side: { initial: 'work', states: { work: side, finished: { type: 'final' } } },
        },
      },
      done: { type: 'final' },
      declined: { type: 'final' },
    },
  });
}

const TASK_FIX = "task: 'required'";

onEachXStatePath('XState constructs: what cannot cross a round is refused at start-up', () => {
  it('refuses a callback invoked on an ancestor of an input state, naming the state, in task mode too', () => {
    const machine = around({ invoke: { src: 'endless' } }, { endless });
    const [problem, ...rest] = startupProblems(machine);
    expect(rest).to.deep.equal([]);
    expect(problem)
      .to.include('state "m.outer"')
      .and.to.include('"endless" (a callback actor)')
      .and.to.include('"m.outer.ask"');
    expect(machineProblems('tool "t"', machine, undefined, { taskMode: true })).to.have.length(1);
  });

  it('refuses an observable invoked in a region parallel to an input state', () => {
    const [problem] = startupProblems(beside({ invoke: { src: 'ticking' } }, { ticking }));
    expect(problem).to.include('state "m.both.side.work"').and.to.include('observable');
  });

  it('refuses inline callback logic invoked on an ancestor of an input state', () => {
    const [problem] = startupProblems(around({ invoke: { src: fromCallback(() => () => {}) } }));
    expect(problem).to.include('inline logic');
  });

  it('refuses "after" on an ancestor of an input state, pointing to task mode, and accepts it in task mode', () => {
    const machine = around({ after: { 1000: 'done' } });
    const [problem] = startupProblems(machine);
    expect(problem).to.include('state "m.outer"').and.to.include('"after"').and.to.include(TASK_FIX);
    expect(machineProblems('tool "t"', machine, undefined, { taskMode: true })).to.deep.equal([]);
  });

  it('refuses "after" in a region parallel to an input state', () => {
    const [problem] = startupProblems(beside({ after: { 10: 'finished' } }));
    expect(problem).to.include('state "m.both.side.work"').and.to.include(TASK_FIX);
  });

  it('refuses "after" on the input state itself, pointing to task mode', () => {
    const machine = setup({}).createMachine({
      id: 'm',
      initial: 'ask',
      states: {
        ask: { ...askText('ask', 'done'), after: { 5000: 'done' } },
        done: { type: 'final' },
        declined: { type: 'final' },
      },
    });
    expect(startupProblems(machine).join('\n')).to.include(TASK_FIX);
    expect(machineProblems('tool "t"', machine, undefined, { taskMode: true })).to.deep.equal([]);
  });

  it("refuses a delay longer than the round's time budget, by number or by name, unless the budget allows it", () => {
    const build = (delay: number | string) =>
      setup({ delays: { slow: 120_000 } }).createMachine({
        id: 'm',
        initial: 'wait',
        states: {
          wait: { after: { [delay]: 'ask' } as never },
          ask: askText('ask', 'done'),
          done: { type: 'final' },
          declined: { type: 'final' },
        },
      });
    for (const delay of [60_000, 'slow']) {
      const [problem] = startupProblems(build(delay));
      expect(problem).to.include('state "m.wait"').and.to.include('time budget').and.to.include(TASK_FIX);
      expect(machineProblems('tool "t"', build(delay), undefined, { taskMode: true })).to.deep.equal([]);
    }
    expect(startupProblems(build(60_000), { timeBudgetMs: 90_000 })).to.deep.equal([]);
  });
});

onEachXStatePath('XState constructs: what can cross a round does', () => {
  it('runs a promise invoked in a region parallel to a question to completion before pausing', async () => {
    let runs = 0;
    const work = fromPromise(async () => {
      runs += 1;
      return 1;
    });
    const driver = roundsOf(beside({ invoke: { src: 'work', onDone: 'finished' } }, { work }));
    const first = await driver.ask();
    expectComplete(await driver.answer(first, { ask: text('a') }));
    expect(runs).to.equal(1);
  });

  it('carries a machine invoked by name on an ancestor of a question, idle while it waits', async () => {
    const machine = setup({ actors: { counter } }).createMachine({
      id: 'm',
      initial: 'outer',
      output: ({ event }) => event.output,
      states: {
        outer: {
          invoke: { src: 'counter', id: 'kid' },
          initial: 'first',
          states: {
            first: askText(
              'first',
              { target: 'second', actions: sendTo('kid', { type: 'INC' }) },
              { onDecline: '#m.declined' },
            ),
            second: askText(
              'second',
              { target: 'third', actions: sendTo('kid', { type: 'INC' }) },
              { onDecline: '#m.declined' },
            ),
            third: askText('third', '#m.report', { onDecline: '#m.declined' }),
          },
          exit: assign({ n: ({ self }) => countOf(self, 'kid') }),
        },
        report: { type: 'final', output: ({ context }) => ({ n: (context as { n: number }).n }) },
        declined: { type: 'final' },
      },
    });
    expect(await answerInTurn(roundsOf(machine), ['first', 'second', 'third'])).to.deep.equal({ n: 2 });
  });

  it('waits out a short "after" between two questions inside one round', async () => {
    const machine = setup({}).createMachine({
      id: 'm',
      initial: 'first',
      states: {
        first: askText('first', 'pause'),
        pause: { after: { 10: 'second' } },
        second: askText('second', 'done'),
        done: { type: 'final' },
        declined: { type: 'final' },
      },
    });
    const driver = roundsOf(machine);
    const first = await driver.ask();
    const second = expectAsked(await driver.answer(first, { first: text('a') }), ['second']);
    expectComplete(await driver.answer(second, { second: text('b') }));
  });
});

onEachXStatePath('XState constructs: what only shows at run time fails the round at once', () => {
  it('names a delayed raise still scheduled at a question', async () => {
    const machine = setup({}).createMachine({
      id: 'm',
      initial: 'ask',
      entry: raise({ type: 'LATER' }, { delay: 20_000 }),
      states: { ask: askText('ask', 'done'), done: { type: 'final' }, declined: { type: 'final' } },
    });
    const message = expectFailed(await roundsOf(machine, { timeBudgetMs: 60_000 }).run());
    expect(message).to.include('timer "LATER"').and.to.include('"m.ask"').and.to.include(TASK_FIX);
  });

  it('keeps waiting on a watchdog timer longer than the round while a callback may still answer first', async () => {
    const reply = fromCallback(({ sendBack }) => {
      const timer = setTimeout(() => sendBack({ type: 'REPLY' }), 5);
      return () => clearTimeout(timer);
    });
    const machine = setup({ actors: { reply }, delays: { watchdog: () => 50_000 } }).createMachine({
      id: 'm',
      initial: 'wait',
      states: {
        wait: { invoke: { src: 'reply' }, on: { REPLY: 'ask' }, after: { watchdog: 'done' } },
        ask: askText('ask', 'done'),
        done: { type: 'final' },
        declined: { type: 'final' },
      },
    });
    expectAsked(await roundsOf(machine, { timeBudgetMs: 10_000 }).run(), ['ask']);
  });

  it('names a timer whose computed delay outlasts the round, without waiting for the budget', async () => {
    const machine = setup({ delays: { computed: () => 50_000 } }).createMachine({
      id: 'm',
      initial: 'wait',
      states: {
        wait: { after: { computed: 'ask' } },
        ask: askText('ask', 'done'),
        done: { type: 'final' },
        declined: { type: 'final' },
      },
    });
    const message = expectFailed(await roundsOf(machine, { timeBudgetMs: 10_000 }).run());
    expect(message).to.include('timer "xstate.after.computed.m.wait"').and.to.include(TASK_FIX);
  });
});
