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
  type AnyActorRef,
} from 'xstate';
import { reportLog, reportProgress } from '../../../server/engine/index.js';
import { expectAsked, expectComplete, expectFailed } from '../fixtures/flow.js';
import { askText, onEachXStatePath, roundsOf, text } from './rounds.js';

const done = { type: 'final' as const };

onEachXStatePath('XState constructs: actors and actions across rounds', () => {
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
  it('runs exit, transition and entry actions in order, then raised events, then events an action sent', async () => {
    const log: string[] = [];
    const note = (entry: string) => () => void log.push(entry);
    const machine = setup({}).createMachine({
      id: 'm',
      initial: 'ask',
      states: {
        ask: {
          ...askText('ask', {
            target: 'next',
            actions: [note('transition'), ({ self }: { self: AnyActorRef }) => self.send({ type: 'SENT' })],
          }),
          exit: note('exit ask'),
        },
        next: {
          entry: [note('entry next'), raise({ type: 'RAISED' })],
          on: {
            RAISED: { actions: note('raised') },
            SENT: { target: 'end', actions: note('sent') },
          },
        },
        end: { type: 'final', entry: note('entry end') },
        declined: done,
      },
    });
    const driver = roundsOf(machine);
    expectComplete(await driver.answer(await driver.ask(), { ask: text('x') }));
    expect(log).to.deep.equal(['exit ask', 'transition', 'entry next', 'raised', 'sent', 'entry end']);
  });

  it('forwards emitted progress and log reports, in order, while the round runs', async () => {
    const machine = setup({}).createMachine({
      id: 'm',
      initial: 'ask',
      entry: [reportProgress({ progress: 1, total: 3 }), reportLog({ level: 'info', data: 'started' })],
      states: {
        ask: askText('ask', {
          target: 'end',
          actions: [reportProgress({ progress: 2 }), reportProgress({ progress: 1 })],
        }),
        end: { type: 'final', entry: reportProgress({ progress: 3, message: 'done' }) },
        declined: done,
      },
    });
    const driver = roundsOf(machine);
    const reports: unknown[] = [];
    const onProgress = (report: unknown) => void reports.push(report);
    const onLog = (report: unknown) => void reports.push(report);
    const first = await driver.ask({ onProgress, onLog });
    expectComplete(await driver.answer(first, { ask: text('x') }, { onProgress, onLog }));
    expect(reports).to.deep.equal([
      { progress: 1, total: 3 },
      { level: 'info', data: 'started' },
      { progress: 2 },
      { progress: 3, message: 'done' },
    ]);
  });

  for (const [label, throwing] of [
    ['an entry action', { entry: 'boom' }],
    ['a transition action', { on: 'boom' }],
    ['an assign', { on: 'assignBoom' }],
    ['an always guard', { always: 'fails' }],
  ] as const) {
    it(`ends the flow with a tool error naming the message when ${label} throws`, async () => {
      const machine = setup({
        actions: {
          boom: () => {
            throw new Error('kaput');
          },
          assignBoom: assign(() => {
            throw new Error('kaput');
          }),
        },
        guards: {
          fails: () => {
            throw new Error('kaput');
          },
        },
      }).createMachine({
        id: 'm',
        initial: 'ask',
        states: {
          ask: askText('ask', {
            target: 'next',
            ...('on' in throwing ? { actions: throwing.on } : {}),
          }),
          next: {
            entry: 'entry' in throwing ? throwing.entry : [],
            always: 'always' in throwing ? [{ guard: throwing.always, target: 'end' }, 'end'] : 'end',
          },
          end: done,
          declined: done,
        },
      });
      const driver = roundsOf(machine);
      const message = expectFailed(await driver.answer(await driver.ask(), { ask: text('x') }));
      expect(message).to.match(/^construct failed: .*kaput/s);
    });
  }

  it('fails the request, as a bug in the tool, when the guard of an answer throws', async () => {
    const machine = setup({
      guards: {
        fails: () => {
          throw new Error('kaput');
        },
      },
    }).createMachine({
      id: 'm',
      initial: 'ask',
      states: { ask: askText('ask', { guard: 'fails', target: 'end' }), end: done, declined: done },
    });
    const driver = roundsOf(machine);
    const asked = await driver.ask();
    let thrown: unknown;
    await driver.answer(asked, { ask: text('x') }).catch((error: unknown) => (thrown = error));
    expect(String(thrown)).to.match(/Unable to evaluate guard 'fails'.*kaput/s);
  });

  it('ends the first round with a tool error when an initial entry action throws', async () => {
    const machine = setup({}).createMachine({
      id: 'm',
      initial: 'ask',
      entry: () => {
        throw new Error('kaput');
      },
      states: { ask: askText('ask', 'end'), end: done, declined: done },
    });
    expect(expectFailed(await roundsOf(machine).run())).to.equal('construct failed: kaput');
  });
});
