/**
 * Every question of every example, declined and cancelled: what each tool's effect did. A decline
 * or cancel is an ordinary transition (docs/authoring.md), and for these tools it must end the
 * flow without the effect, except where the tool says otherwise (collect-feedback saves the
 * rating when the details are declined). The effects are counted by stand-ins, so a machine whose
 * decline goes on to provision a database fails here, not only in the committed docs.
 */
import { expect } from 'chai';
import { fromPromise, type AnyActorLogic } from 'xstate';
import { createMemoryVault, exampleTools } from '../../../machines/index.js';
import type { ToolDefinition } from '../../../server/engine/index.js';
import { accept, cancel, decline, runFlow, type Answers } from '../../../server/testing/index.js';

interface Expectation {
  /** The invoked actor that is the tool's effect. */
  effect: string;
  /** Every question the tool asks on the way to its effect. */
  questions: string[];
  /** Answers that lead to every question (the happy path reaches the others). */
  reach?: Answers;
  /** Effects expected when a question is declined or cancelled (0 when absent). */
  runs?: Record<string, number>;
}

const EXPECTED: Record<string, Expectation> = {
  release: { effect: 'deploy', questions: ['window', 'confirm'] },
  'provision-database': { effect: 'provision', questions: ['size', 'region', 'confirm'] },
  'connect-payments': { effect: 'lookupSecret', questions: ['link'] },
  // An unhappy rating is what asks for details; declining the details still saves the rating.
  'collect-feedback': {
    effect: 'saveFeedback',
    questions: ['rating', 'details'],
    reach: { rating: accept({ rating: 1 }) },
    runs: { details: 1 },
  },
  'ship-release': { effect: 'promote', questions: ['approve'] },
};

function counting(tool: ToolDefinition, effect: string) {
  const counter = { runs: 0 };
  const real = (tool.exampleActors as Record<string, AnyActorLogic> | undefined)?.[effect];
  const stand = fromPromise(async (args: { input: unknown; self: unknown; system: unknown; signal: AbortSignal }) => {
    counter.runs += 1;
    // The docs' stand-in gives the output the machine expects next.
    return real ? await (real as unknown as { config: (a: unknown) => Promise<unknown> }).config(args) : undefined;
  });
  return { counter, actors: { [effect]: stand as AnyActorLogic } };
}

describe('every example, declined and cancelled at each question: effects counted', function () {
  this.timeout(60_000);
  const tools = exampleTools({ publicUrl: 'http://127.0.0.1:0', vault: createMemoryVault() });

  it('covers every example tool', () => {
    expect(tools.map((t) => t.name).sort()).to.deep.equal(Object.keys(EXPECTED).sort());
  });

  for (const tool of tools) {
    const expected = EXPECTED[tool.name]!;
    describe(tool.name, () => {
      let keys: string[] = [];
      before(async () => {
        const { counter, actors } = counting(tool, expected.effect);
        const happy = await runFlow(tool, undefined, expected.reach ?? {}, { actors });
        keys = [...new Set(happy.asked)];
        expect(keys.sort(), `the questions ${tool.name} asks`).to.deep.equal([...expected.questions].sort());
        expect(counter.runs, `${tool.name}'s happy path runs its effect`).to.be.greaterThan(0);
      });

      for (const [label, answer] of [
        ['decline', decline()],
        ['cancel', cancel()],
      ] as const) {
        it(`runs the effect only as the tool says when a question is answered with ${label}`, async () => {
          for (const key of keys) {
            const { counter, actors } = counting(tool, expected.effect);
            const run = await runFlow(tool, undefined, { ...expected.reach, [key]: answer }, { actors });
            expect(run.outcome, `${label} at ${key}`).to.equal('complete');
            expect(counter.runs, `${expected.effect} runs after ${label} at "${key}"`).to.equal(
              expected.runs?.[key] ?? 0,
            );
          }
        });
      }
    });
  }
});
