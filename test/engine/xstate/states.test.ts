import { expect } from 'chai';
import { and, assign, not, or, setup, stateIn } from 'xstate';
import { formContent } from '../../../server/engine/index.js';
import { accept, expectAsked, expectComplete } from '../fixtures/flow.js';
import { askText, onEachXStatePath, roundsOf, text } from './rounds.js';

const done = { type: 'final' as const };

onEachXStatePath('XState constructs: states across rounds', () => {
  it('nested and parallel states: two regions ask in one round, each answered in its own round', async () => {
    const machine = setup({}).createMachine({
      id: 'm',
      initial: 'collect',
      output: ({ context }) => context,
      context: { a: '', b: '' },
      states: {
        collect: {
          type: 'parallel',
          onDone: 'done',
          states: {
            left: {
              initial: 'ask',
              states: {
                ask: askText(
                  'a',
                  { target: 'ok', actions: assign({ a: ({ event }) => formContent<{ text: string }>(event).text }) },
                  { onDecline: '#m.declined' },
                ),
                ok: done,
              },
            },
            right: {
              initial: 'ask',
              states: {
                ask: askText(
                  'b',
                  { target: 'ok', actions: assign({ b: ({ event }) => formContent<{ text: string }>(event).text }) },
                  { onDecline: '#m.declined' },
                ),
                ok: done,
              },
            },
          },
        },
        done,
        declined: done,
      },
    });
    const driver = roundsOf(machine);
    const first = await driver.ask();
    expect(Object.keys(first.inputRequests)).to.deep.equal(['a', 'b']);
    const second = expectAsked(await driver.answer(first, { b: text('B') }), ['a']);
    expect(expectComplete(await driver.answer(second, { a: text('A') }))).to.deep.equal({ a: 'A', b: 'B' });
  });

  for (const history of ['shallow', 'deep'] as const) {
    it(`${history} history restored across rounds returns to the remembered state`, async () => {
      const machine = setup({}).createMachine({
        id: 'm',
        initial: 'form',
        output: ({ event }) => event.output,
        states: {
          form: {
            initial: 'page',
            states: {
              page: {
                initial: 'p1',
                states: {
                  p1: askText('p1', 'p2', { onDecline: '#m.declined' }),
                  p2: askText('p2', '#m.done', { onDecline: '#m.help' }),
                },
              },
              h: { type: 'history', history },
            },
          },
          help: askText('help', '#m.form.h'),
          done: { type: 'final', output: { finished: true } },
          declined: done,
        },
      });
      const driver = roundsOf(machine);
      const p1 = await driver.ask();
      const p2 = expectAsked(await driver.answer(p1, { p1: text('x') }), ['p2']);
      const help = expectAsked(await driver.answer(p2, { p2: { action: 'decline' } }), ['help']);
      // Deep history returns to page.p2; shallow history to the page's initial state p1.
      expectAsked(await driver.answer(help, { help: text('ok') }), [history === 'deep' ? 'p2' : 'p1']);
    });
  }

  it('always with guards, and parameterised guards combined with and/or/not/stateIn', async () => {
    const machine = setup({
      guards: {
        longer: ({ context }, params: { than: number }) => (context as { text: string }).text.length > params.than,
        empty: ({ context }) => (context as { text: string }).text === '',
      },
    }).createMachine({
      id: 'm',
      initial: 'run',
      context: { text: '' },
      output: ({ event }) => event.output,
      states: {
        run: {
          type: 'parallel',
          states: {
            mode: { initial: 'strict', states: { strict: {} } },
            flow: {
              initial: 'ask',
              states: {
                ask: askText(
                  'ask',
                  {
                    target: 'check',
                    actions: assign({ text: ({ event }) => formContent<{ text: string }>(event).text }),
                  },
                  { onDecline: '#m.declined' },
                ),
                check: {
                  always: [
                    {
                      guard: and([
                        { type: 'longer', params: { than: 3 } },
                        not('empty'),
                        stateIn('#m.run.mode.strict'),
                      ]),
                      target: '#m.long',
                    },
                    { guard: or(['empty', { type: 'longer', params: { than: 1 } }]), target: '#m.short' },
                    { target: 'ask' },
                  ],
                },
              },
            },
          },
        },
        long: { type: 'final', output: { kind: 'long' } },
        short: { type: 'final', output: { kind: 'short' } },
        declined: done,
      },
    });
    const driver = roundsOf(machine);
    const first = await driver.ask();
    const again = expectAsked(await driver.answer(first, { ask: text('a') }), ['ask']);
    expect(expectComplete(await driver.answer(again, { ask: text('abcdef') }))).to.deep.equal({ kind: 'long' });
  });

  it('every kind of final output: static, computed from context, and none', async () => {
    const outputs: unknown[] = [];
    for (const output of [{ fixed: 1 }, ({ context }: { context: { n: number } }) => ({ n: context.n }), undefined]) {
      const machine = setup({}).createMachine({
        id: 'm',
        initial: 'ask',
        context: { n: 7 },
        output: ({ event }) => event.output,
        states: {
          ask: askText('ask', 'end'),
          end: { type: 'final', ...(output ? { output: output as never } : {}) },
          declined: done,
        },
      });
      const driver = roundsOf(machine);
      outputs.push(expectComplete(await driver.answer(await driver.ask(), { ask: text('x') })));
    }
    expect(outputs).to.deep.equal([{ fixed: 1 }, { n: 7 }, undefined]);
  });

  it('machine input, author tags and meta, setup with provide(), and #id targets', async () => {
    const base = setup({ actions: { note: () => {} }, guards: { allowed: () => false } }).createMachine({
      id: 'm',
      initial: 'outer',
      context: ({ input }) => ({ who: (input as { who?: string }).who ?? 'nobody' }),
      output: ({ event }) => event.output,
      states: {
        outer: {
          tags: ['author-tag'],
          meta: { note: 'author meta' },
          initial: 'ask',
          states: {
            ask: askText('ask', [{ guard: 'allowed', target: '#yes' }, { target: '#no' }], {
              onDecline: '#m.declined',
            }),
          },
        },
        yes: { id: 'yes', type: 'final', output: ({ context }) => ({ yes: context.who }) },
        no: { id: 'no', type: 'final', output: ({ context }) => ({ no: context.who }) },
        declined: done,
      },
    });
    const provided = base.provide({ guards: { allowed: () => true } });
    const driver = roundsOf(provided);
    const first = await driver.ask({ arguments: { who: 'ada' } });
    expect(
      expectComplete(await driver.answer(first, { ask: accept({ text: 'x' }) }, { arguments: { who: 'ada' } })),
    ).to.deep.equal({
      yes: 'ada',
    });
  });
});
