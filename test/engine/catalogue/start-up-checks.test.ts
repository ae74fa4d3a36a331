import { expect } from 'chai';
import { fromPromise, setup, type AnyStateMachine } from 'xstate';
import { ConfigurationError, ToolRegistry, askForm, defineTool } from '../../../server/engine/index.js';
import { runFlow } from '../../../server/testing/index.js';

const SCHEMA = { type: 'object' as const, properties: { text: { type: 'string' } } };

function tool(config: Record<string, unknown>) {
  return defineTool({
    name: 'checked',
    description: 'A machine under a start-up check.',
    inputSchema: { type: 'object' },
    machine: setup({}).createMachine({ id: 'checked', ...config } as never) as unknown as AnyStateMachine,
  });
}

function problemsOf(config: Record<string, unknown>): string {
  try {
    new ToolRegistry([tool(config)]);
    return '';
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigurationError);
    return (error as Error).message;
  }
}

const ask = (key: string, extra: Record<string, unknown> = {}) => ({
  ...askForm({ key, message: 'Why?', schema: SCHEMA, onAccept: 'done', onDecline: 'done' }),
  ...extra,
});

describe('start-up checks', () => {
  describe('answer handlers', () => {
    it('refuses a handler for a key no question asks, naming the closest key', () => {
      const message = problemsOf({
        initial: 'asking',
        states: {
          asking: { ...ask('justification'), on: { ...ask('justification').on, 'answer.justifcation.accept': 'done' } },
          done: { type: 'final' },
        },
      });
      expect(message).to.include('answer.justifcation.accept');
      expect(message).to.include('"answer.justification.…"');
      expect(message).to.include('checked.asking');
    });

    it('refuses one on a state that is not an input state, too', () => {
      const message = problemsOf({
        initial: 'asking',
        states: {
          asking: ask('reason'),
          idle: { on: { 'answer.reasons.decline': 'done' } },
          done: { type: 'final' },
        },
      });
      expect(message).to.include('answer.reasons.decline');
      expect(message).to.include('"answer.reason.…"');
    });

    it('accepts handlers for the keys the questions ask, wherever they sit', () => {
      expect(
        problemsOf({
          initial: 'asking',
          on: { 'answer.reason.cancel': '.done' },
          states: { asking: ask('reason'), done: { type: 'final' } },
        }),
      ).to.equal('');
    });
  });

  describe('question states', () => {
    // The fix each message gives is the readable shape (tags + meta), not a helper call that
    // XState's editor tooling cannot read.
    const readableShape = "write its state as { tags: ['baton.input'], meta: { 'baton.input': { key: '<key>' } }";

    it('refuses a state tagged as a question that asks none, saying how a question is written', () => {
      const message = problemsOf({
        initial: 'asking',
        states: { asking: { tags: ['baton.input'], on: { go: 'done' } }, done: { type: 'final' } },
      });
      expect(message).to.include('tagged "baton.input" but asks no question');
      expect(message).to.include(readableShape);
      expect(message).to.not.include('askForm');
    });

    it('refuses a question without its tag, saying how a question is written', () => {
      const untagged = { ...ask('why'), tags: [] };
      const message = problemsOf({ initial: 'asking', states: { asking: untagged, done: { type: 'final' } } });
      expect(message).to.include('has a question but no "baton.input" tag');
      expect(message).to.include(readableShape);
    });

    it('refuses a handler for an answer when no question asks anything, saying how to ask', () => {
      const message = problemsOf({
        initial: 'waiting',
        states: { waiting: { on: { 'answer.why.accept': 'done' } }, done: { type: 'final' } },
      });
      expect(message).to.include('No question of this machine asks anything');
      expect(message).to.include(readableShape);
      expect(message).to.not.include('askForm');
    });
  });

  describe('parallel states', () => {
    const regions = {
      a: { initial: 'asking', states: { asking: ask('a', {}), done: { type: 'final' } } },
      b: { initial: 'asking', states: { asking: ask('b', {}), done: { type: 'final' } } },
    };

    it('refuses one whose regions can all finish but that has no onDone', () => {
      const message = problemsOf({
        initial: 'both',
        states: { both: { type: 'parallel', states: regions }, done: { type: 'final' } },
      });
      expect(message).to.include('checked.both');
      expect(message).to.include('onDone');
    });

    it('accepts it with onDone, or when a region can never finish', () => {
      expect(
        problemsOf({
          initial: 'both',
          states: { both: { type: 'parallel', onDone: 'done', states: regions }, done: { type: 'final' } },
        }),
      ).to.equal('');
      const again = { 'answer.b.accept': 'asking', 'answer.b.decline': 'asking', 'answer.b.cancel': 'asking' };
      const endless = { initial: 'asking', states: { asking: { ...ask('b'), on: again } } };
      expect(
        problemsOf({
          initial: 'both',
          states: {
            both: { type: 'parallel', states: { a: regions.a, b: endless }, on: { 'answer.a.cancel': 'done' } },
            done: { type: 'final' },
          },
        }),
      ).to.equal('');
    });
  });
});

describe('a form schema computed from context', () => {
  it('fails the call in its first round with a tool error naming the state, not a re-ask', async () => {
    const computed = defineTool({
      name: 'computed',
      description: 'Asks with a schema computed from context.',
      inputSchema: { type: 'object' },
      machine: setup({}).createMachine({
        id: 'computed',
        initial: 'asking',
        output: ({ event }) => (event as { output?: unknown }).output,
        states: {
          asking: askForm({
            key: 'pick',
            message: 'Pick one',
            schema: () => ({ type: 'string' }) as never,
            onAccept: 'done',
            onDecline: 'done',
          }),
          done: { type: 'final', output: 'done' },
        },
      }),
    });
    const run = await runFlow(computed, {});
    expect(run.outcome).to.equal('complete');
    expect(run.rounds).to.have.length(1);
    expect(run.result?.isError).to.equal(true);
    expect(JSON.stringify(run.result?.content)).to.include('computed.asking');
  });

  it('does the same inside a task, where the question is answered with tasks/update', async function () {
    this.timeout(20_000);
    const computed = defineTool({
      name: 'computed-task',
      description: 'Works, then asks with a schema computed from context.',
      inputSchema: { type: 'object' },
      task: 'required',
      safeActors: ['work'],
      machine: setup({ actors: { work: fromPromise(async () => 'done') } }).createMachine({
        id: 'computedTask',
        initial: 'working',
        output: ({ event }) => (event as { output?: unknown }).output,
        states: {
          working: { invoke: { src: 'work', onDone: 'asking' } },
          asking: askForm({
            key: 'pick',
            message: 'Pick one',
            schema: () => ({ type: 'object', properties: { pick: 'string' } }) as never,
            onAccept: 'done',
            onDecline: 'done',
          }),
          done: { type: 'final', output: 'done' },
        },
      }),
    });
    const run = await runFlow(computed, {});
    expect(run.outcome).to.equal('complete');
    expect(run.asked).to.deep.equal([]);
    expect(run.result?.isError).to.equal(true);
    expect(JSON.stringify(run.result?.content)).to.include('computedTask.asking');
  });
});
