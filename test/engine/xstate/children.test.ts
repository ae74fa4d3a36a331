import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { assign, createMachine, fromCallback, fromPromise, sendTo, setup, spawnChild, stopChild } from 'xstate';
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

/** Two questions; whatever `entry` spawns is alive (or done) while they are asked. */
function spawning(entry: unknown, actors: Record<string, unknown> = {}) {
  return setup({ actors: actors as never }).createMachine({
    id: 'parent',
    initial: 'first',
    entry: entry as never,
    states: {
      first: askText('first', 'second'),
      second: askText('second', 'done'),
      done: { type: 'final' },
      declined: { type: 'final' },
    },
  });
}

onEachXStatePath('XState constructs: children across rounds', () => {
  it('drops a finished child spawned from inline logic instead of sealing logic it cannot restore', async () => {
    const driver = roundsOf(
      spawning(
        spawnChild(
          fromPromise(async () => 1),
          { id: 'inline' },
        ),
      ),
    );
    const first = await driver.ask();
    const second = expectAsked(await driver.answer(first, { first: text('a') }), ['second']);
    expectComplete(await driver.answer(second, { second: text('b') }));
  });

  it("does the same with xstate's production build, where the child's logic used to be sealed as {}", async () => {
    const script = fileURLToPath(new URL('./fixtures/inline-child-rounds.ts', import.meta.url));
    // No `development` condition here, unlike the test process itself.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(JSON.parse(stdout)).to.deep.equal(['input_required', 'input_required', 'complete']);
  });

  it('fails the round at once, naming the child, when inline logic is still running at a question', async () => {
    const machine = spawning(
      spawnChild(createMachine({ initial: 'idle', states: { idle: {} } }), { id: 'inlineMachine' }),
    );
    const driver = roundsOf(machine);
    const message = expectFailed(await driver.run());
    expect(message).to.include('child "inlineMachine"').and.to.include('by name');
  });

  it('carries a machine spawned by name across rounds with its context, still answering sendTo', async () => {
    const machine = setup({ actors: { counter } }).createMachine({
      id: 'parent',
      initial: 'first',
      entry: spawnChild('counter', { id: 'kid' }),
      output: ({ event }) => event.output,
      states: {
        first: askText('first', { target: 'second', actions: sendTo('kid', { type: 'INC' }) }),
        second: askText('second', { target: 'third', actions: sendTo('kid', { type: 'INC' }) }),
        third: askText('third', 'report'),
        report: {
          type: 'final',
          output: ({ self }) => ({ n: countOf(self, 'kid') }),
        },
        declined: { type: 'final' },
      },
    });
    expect(await answerInTurn(roundsOf(machine), ['first', 'second', 'third'])).to.deep.equal({ n: 2 });
  });

  it('carries a ref to a machine spawned by name in context (assign + spawn) across rounds', async () => {
    const machine = setup({ actors: { counter } }).createMachine({
      id: 'parent',
      initial: 'first',
      context: ({ spawn }) => ({ ref: spawn('counter', { id: 'kid' }) }),
      output: ({ event }) => event.output,
      states: {
        first: askText('first', { target: 'second', actions: sendTo(({ context }) => context.ref, { type: 'INC' }) }),
        second: askText('second', 'report'),
        report: {
          type: 'final',
          output: ({ context }) => ({ n: (context.ref.getSnapshot() as { context: { n: number } }).context.n }),
        },
        declined: { type: 'final' },
      },
    });
    const driver = roundsOf(machine);
    const first = await driver.ask();
    const second = expectAsked(await driver.answer(first, { first: text('a') }), ['second']);
    expect(expectComplete(await driver.answer(second, { second: text('b') }))).to.deep.equal({ n: 1 });
  });

  it("accepts assign + spawn('quick') in the first state's entry at start-up, and runs it across rounds", async () => {
    const machine = setup({ actors: { quick: fromPromise(async () => 1) } }).createMachine({
      id: 'parent',
      initial: 'first',
      context: { ref: undefined as unknown },
      states: {
        first: { entry: assign({ ref: ({ spawn }) => spawn('quick') }), ...askText('first', 'second') },
        second: askText('second', 'done'),
        done: { type: 'final' },
        declined: { type: 'final' },
      },
    });
    expect(startupProblems(machine)).to.deep.equal([]);
    await answerInTurn(roundsOf(machine), ['first', 'second']);
  });

  it('waits for a promise spawned by name to finish before pausing, and does not run it again', async () => {
    let runs = 0;
    const machine = spawning(spawnChild('work', { id: 'work' }), {
      work: fromPromise(async () => {
        runs += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return 1;
      }),
    });
    const driver = roundsOf(machine);
    const first = await driver.ask();
    const second = expectAsked(await driver.answer(first, { first: text('a') }), ['second']);
    expectComplete(await driver.answer(second, { second: text('b') }));
    expect(runs).to.equal(1);
  });

  it('fails the round at once, naming the child, when a callback spawned by name still runs at a question', async () => {
    const machine = spawning(spawnChild('ticker', { id: 'ticker' }), { ticker: fromCallback(() => () => {}) });
    const driver = roundsOf(machine, { timeBudgetMs: 60_000 });
    const message = expectFailed(await driver.run());
    expect(message).to.include('child "ticker" (a callback actor)').and.to.include('"parent.first"');
  });

  it('pauses once a callback child is stopped before the question', async () => {
    const machine = setup({ actors: { ticker: fromCallback(() => () => {}) } }).createMachine({
      id: 'parent',
      initial: 'ticking',
      states: {
        ticking: {
          entry: spawnChild('ticker', { id: 'ticker' }),
          always: { target: 'first', actions: stopChild('ticker') },
        },
        first: askText('first', 'done'),
        done: { type: 'final' },
        declined: { type: 'final' },
      },
    });
    const driver = roundsOf(machine);
    const first = await driver.ask();
    expectComplete(await driver.answer(first, { first: text('a') }));
  });
});
