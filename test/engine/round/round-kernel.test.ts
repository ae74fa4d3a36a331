/**
 * The round kernel as its two callers use it: a round in a request and a step of a task. What the
 * flow engine and the task runner add around it (sealing, single use, the task record) is tested
 * with them.
 */
import { expect } from 'chai';
import { assign, createMachine, emit, fromPromise, setup } from 'xstate';
import { askForm, formContent, type AnswerEvent } from '../../../server/engine/index.js';
import { RoundKernel, type RoundOutcome } from '../../../server/engine/round/index.js';
import { fetchThenCount, requestRound, taskStep } from './fixtures.js';

const kernel = new RoundKernel();

/** The question both machines here ask. */
const nameQuestion = {
  key: 'name',
  message: 'Name?',
  schema: { type: 'object' as const, properties: { name: { type: 'string' as const } }, required: ['name'] },
};

/** Asks a name, then answers with it. */
const greeter = setup({ types: {} as { context: { name: string }; events: AnswerEvent } }).createMachine({
  id: 'greeter',
  initial: 'asking',
  context: { name: '' },
  output: ({ event }) => event.output,
  states: {
    asking: askForm({
      ...nameQuestion,
      onAccept: {
        target: 'done',
        actions: assign({ name: ({ event }) => formContent<{ name: string }>(event).name }),
      },
      onDecline: 'done',
    }),
    done: { type: 'final', output: ({ context }) => `hello ${context.name}` },
  },
});

function asking(outcome: RoundOutcome): Extract<RoundOutcome, { kind: 'asking' }> {
  if (outcome.kind !== 'asking') expect.fail(`expected asking, got ${JSON.stringify(outcome)}`);
  return outcome;
}

/** The snapshot a first round pauses at. */
async function pausedGreeter() {
  return asking(await kernel.run(requestRound(greeter))).persisted;
}

describe('RoundKernel', () => {
  it('answers a round that settles at once without a promise, and one that waits with one', async () => {
    const atOnce = kernel.run(requestRound(greeter));
    expect(atOnce).to.not.be.instanceOf(Promise);
    expect(asking(atOnce as RoundOutcome).keys).to.deep.equal(['name']);
    const waiting = kernel.run(requestRound(fetchThenCount));
    expect(waiting).to.be.instanceOf(Promise);
    expect(await waiting).to.deep.equal({ kind: 'complete', output: 'counted' });
  });

  it('continues from a snapshot with the answers to the keys asked', async () => {
    const snapshot = await pausedGreeter();
    const outcome = await kernel.run(
      requestRound(greeter, {
        snapshot,
        asked: ['name'],
        responses: { name: { action: 'accept', content: { name: 'ada' } } },
      }),
    );
    expect(outcome).to.deep.equal({ kind: 'complete', output: 'hello ada' });
  });

  it('refuses a malformed response in a request, before anything runs, and asks again in a step', async () => {
    const snapshot = await pausedGreeter();
    const answers = { snapshot, asked: ['name'], responses: { name: 'not a response' } };
    const refused = await kernel.run(requestRound(greeter, answers));
    expect(refused.kind).to.equal('refused');
    expect((refused as { error: { reason: string } }).error.reason).to.equal('invalid_responses');
    const again = asking(await kernel.run(taskStep(greeter, answers)));
    expect(again.retryReasons).to.deep.equal({ name: 'Your last answer could not be read.' });
    expect(again.inputRequests.name!.params!.message).to.equal('Your last answer could not be read. Name?');
  });

  it("checks a task's answer against the schema its question was asked with", async () => {
    const snapshot = await pausedGreeter();
    const outcome = await kernel.run(
      taskStep(greeter, {
        snapshot,
        asked: ['name'],
        responses: { name: { action: 'accept', content: { name: 'ada' } } },
        // The request the task recorded allowed only numbers.
        askedSchemas: { name: { type: 'object', properties: { name: { type: 'number' } } } },
      }),
    );
    expect(asking(outcome).retryReasons.name).to.match(/^Your last answer was not accepted/);
  });

  describe('an answer no transition takes is asked again, saying so (both XState paths)', () => {
    /** Takes only the name "ada"; a decline is taken by a transition that changes nothing. */
    const picky = setup({ types: {} as { events: AnswerEvent } }).createMachine({
      id: 'picky',
      initial: 'asking',
      output: ({ event }) => event.output,
      states: {
        asking: askForm({
          ...nameQuestion,
          onAccept: {
            guard: ({ event }: { event: AnswerEvent }) => formContent<{ name: string }>(event).name === 'ada',
            target: 'done',
          },
          onDecline: { actions: emit({ type: 'declined' }) },
        }),
        done: { type: 'final', output: 'welcome' },
      },
    });
    const answer = (response: unknown) => ({ asked: ['name'], responses: { name: response } });

    for (const xstatePath of ['public', 'auto'] as const) {
      const roundKernel = new RoundKernel({ xstatePath });
      const resumed = async (response: unknown) => {
        const snapshot = asking(await roundKernel.run(requestRound(picky))).persisted;
        return roundKernel.run(requestRound(picky, { snapshot, ...answer(response) }));
      };

      it(`${xstatePath}: a guard that refuses the answer`, async () => {
        const again = asking(await resumed({ action: 'accept', content: { name: 'bob' } }));
        expect(again.retryReasons).to.deep.equal({ name: 'Your last answer was not accepted.' });
        expect(again.inputRequests.name!.params!.message).to.equal('Your last answer was not accepted. Name?');
      });

      it(`${xstatePath}: a transition that takes the answer and changes nothing is no refusal`, async () => {
        const again = asking(await resumed({ action: 'decline' }));
        expect(again.retryReasons).to.deep.equal({});
        expect(again.inputRequests.name!.params!.message).to.equal('Name?');
      });

      it(`${xstatePath}: the answer the guard lets through`, async () => {
        expect(await resumed({ action: 'accept', content: { name: 'ada' } })).to.deep.equal({
          kind: 'complete',
          output: 'welcome',
        });
      });
    }
  });

  it('judges the actor after the queued events have run, in a request and in a step', async () => {
    expect(await kernel.run(requestRound(fetchThenCount))).to.deep.equal({ kind: 'complete', output: 'counted' });
    expect(await kernel.run(taskStep(fetchThenCount))).to.deep.equal({ kind: 'complete', output: 'counted' });
  });

  it('in a step, keeps a far timer with the snapshot and arms it again in the next step', async () => {
    const machine = createMachine({
      initial: 'wait',
      output: ({ event }) => event.output,
      states: { wait: { after: { 150: 'done' } }, done: { type: 'final', output: 'woke' } },
    });
    const first = await kernel.run(taskStep(machine, { inlineTimerMs: 0 }));
    if (first.kind !== 'sleeping') expect.fail(`expected sleeping, got ${first.kind}`);
    expect(first.timers).to.have.length(1);
    expect(first.timers[0]!.dueAt).to.be.greaterThan(Date.now());
    const second = await kernel.run(
      taskStep(machine, { snapshot: first.persisted, timers: first.timers, wallNow: Date.now(), inlineTimerMs: 1000 }),
    );
    expect(second).to.deep.equal({ kind: 'complete', output: 'woke' });
  });

  it('in a request, fails a round whose timer would fire after its budget, and says so', async () => {
    const machine = createMachine({
      initial: 'wait',
      states: { wait: { after: { 60_000: 'done' } }, done: { type: 'final' } },
    });
    const outcome = await kernel.run(requestRound(machine));
    expect(outcome.kind).to.equal('failed');
    expect((outcome as { reason: string }).reason).to.equal('blocked');
  });

  it('hands over where long work starts, with the work not started', async () => {
    const runs: string[] = [];
    const machine = setup({
      actors: { work: fromPromise(async () => void runs.push('work')) },
    }).createMachine({
      initial: 'working',
      states: { working: { invoke: { src: 'work', onDone: 'done' } }, done: { type: 'final' } },
    });
    const outcome = await kernel.run(requestRound(machine, { handover: true }));
    expect(outcome.kind).to.equal('handover');
    expect(runs).to.deep.equal([]);
  });

  it('answers a first call ahead: its responses answer the first questions asked', async () => {
    const outcome = await kernel.run(
      requestRound(greeter, { answersAhead: { name: { action: 'accept', content: { name: 'bo' } } } }),
    );
    expect(outcome).to.deep.equal({ kind: 'complete', output: 'hello bo' });
  });

  it('refuses questions of a kind the client did not declare, naming what it needs', async () => {
    const outcome = await kernel.run(taskStep(greeter, { clientCapabilities: {} }));
    if (outcome.kind !== 'refused') expect.fail(`expected refused, got ${outcome.kind}`);
    expect(outcome.error.reason).to.equal('missing_capability');
    expect(outcome.error.data).to.deep.equal({ requiredCapabilities: { elicitation: { form: {} } } });
  });

  it('ends a flow in a request that keeps asking after maxRounds', async () => {
    const outcome = await kernel.run(requestRound(greeter, { round: 3, maxRounds: 3 }));
    expect(outcome).to.deep.equal({
      kind: 'failed',
      reason: 'round_limit',
      message: 'probe asked for input 3 times without finishing.',
    });
  });

  it('words a timeout for a round and for a step', async () => {
    const slow = setup({
      actors: { slow: fromPromise(() => new Promise((resolve) => setTimeout(resolve, 500))) },
    }).createMachine({
      initial: 'working',
      states: { working: { invoke: { src: 'slow', onDone: 'done' } }, done: { type: 'final' } },
    });
    const inRound = await kernel.run(requestRound(slow, { budgetMs: 20 }));
    expect(inRound).to.deep.include({ kind: 'failed', reason: 'timeout' });
    expect((inRound as { message: string }).message).to.match(
      /^probe did not finish its work within 20 ms\. Still running: child/,
    );
    const inStep = await kernel.run(taskStep(slow, { budgetMs: 20 }));
    expect(inStep).to.deep.equal({
      kind: 'failed',
      reason: 'timeout',
      message: 'probe did not finish a step within 20 ms.',
    });
  });
});
