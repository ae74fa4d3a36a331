/**
 * The one settle rule, in a request (timers must fire within the round) and with durable timers
 * (a task step), on live actors.
 */
import { expect } from 'chai';
import { createActor, createMachine } from 'xstate';
import { askForm } from '../../../server/engine/index.js';
import { IN_ROUND, settle, type SettleRule } from '../../../server/engine/round/settle.js';
import { fetchThenCount } from './fixtures.js';

const DURABLE: SettleRule = { durableTimers: { inlineTimerMs: 50 } };

function started(machine: Parameters<typeof createActor>[0]) {
  const actor = createActor(machine);
  actor.subscribe({ error: () => {} });
  actor.start();
  return actor;
}

const question = askForm({
  key: 'ok',
  message: 'OK?',
  schema: { type: 'object', properties: {} },
  onAccept: 'done',
  onDecline: 'done',
});

describe('settle', () => {
  for (const [mode, rule] of [
    ['in a request', IN_ROUND],
    ['with durable timers', DURABLE],
  ] as const) {
    it(`judges the actor after waitFor ${mode}: a child that finished at once is not read as stuck`, async () => {
      const actor = started(fetchThenCount);
      const settled = await settle(actor, 2000, undefined, rule);
      actor.stop();
      expect(settled).to.deep.equal({ kind: 'done', output: 'counted' });
    });
  }

  it('in a request, refuses a timer at a question at once, naming it', async () => {
    const machine = createMachine({
      initial: 'asking',
      states: { asking: { ...question, after: { 60_000: 'done' } }, done: { type: 'final' } },
    });
    const actor = started(machine);
    const settled = await settle(actor, 2000, undefined, IN_ROUND);
    actor.stop();
    expect(settled.kind).to.equal('blocked');
    expect((settled as { reason: string }).reason).to.include('60000 ms');
  });

  it('with durable timers, asks at a question with a far timer pending, and sleeps on one elsewhere', async () => {
    const asking = started(
      createMachine({
        initial: 'asking',
        states: { asking: { ...question, after: { 60_000: 'done' } }, done: { type: 'final' } },
      }),
    );
    expect((await settle(asking, 2000, undefined, DURABLE)).kind).to.equal('waiting');
    asking.stop();
    const sleeping = started(
      createMachine({ initial: 'wait', states: { wait: { after: { 60_000: 'done' } }, done: { type: 'final' } } }),
    );
    expect((await settle(sleeping, 2000, undefined, DURABLE)).kind).to.equal('sleeping');
    sleeping.stop();
  });

  it('with durable timers, waits inside the step for a timer about to fire', async () => {
    const actor = started(
      createMachine({
        initial: 'wait',
        states: { wait: { after: { 20: 'done' } }, done: { type: 'final' } },
      }),
    );
    const settled = await settle(actor, 2000, undefined, DURABLE);
    actor.stop();
    expect(settled.kind).to.equal('done');
  });

  it('says a machine with nothing running and no question is stuck, in both modes', async () => {
    for (const rule of [IN_ROUND, DURABLE]) {
      const actor = started(createMachine({ initial: 'limbo', states: { limbo: {} } }));
      expect(await settle(actor, 2000, undefined, rule)).to.deep.equal({ kind: 'stuck', value: 'limbo' });
      actor.stop();
    }
  });
});
