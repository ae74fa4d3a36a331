import { expect } from 'chai';
import type { AnyActor } from 'xstate';
import { BENCH_FLOWS, type FlowLabel } from '../../bench/flows/bench-flows.js';
import { flowRounds } from '../../bench/micro/flow-round-steps.js';
import { RoundSteps } from '../../bench/micro/round-steps.js';

const first = ['initial', 'persist', 'stringify', 'seal', 'binding', 'ask'];
const resumed = ['open', 'parse', 'restore', 'start'];
const sealing = ['persist', 'stringify', 'seal'];
const middle = (...keys: string[]) => [
  ...resumed,
  ...keys.map((k) => `send (${k})`),
  ...sealing,
  'binding',
  ...keys.map((k) => `answer mapping (${k})`),
  'ask',
];
const last = (...keys: string[]) => [
  ...resumed,
  ...keys.map((k) => `send (${k})`),
  'binding',
  ...keys.map((k) => `answer mapping (${k})`),
];

/** The unavoidable steps of each request of each flow, in the order the engine performs them. */
const EXPECTED: Record<FlowLabel, Array<{ kind: string; steps: string[] }>> = {
  'one-question': [
    { kind: 'first', steps: first },
    { kind: 'last', steps: last('name') },
  ],
  'three-question': [
    { kind: 'first', steps: first },
    { kind: 'middle', steps: middle('window') },
    { kind: 'middle', steps: middle('approver') },
    { kind: 'last', steps: last('confirm') },
  ],
  parallel: [
    { kind: 'first', steps: first },
    { kind: 'middle', steps: middle('size', 'region') },
    { kind: 'last', steps: last('confirm') },
  ],
};

describe('bench flow round steps', () => {
  for (const flow of BENCH_FLOWS) {
    it(`walks every round of ${flow.label} through the engine with the steps that round performs`, async () => {
      const rounds = await flowRounds(flow);
      expect(rounds.map(({ steps }) => ({ kind: steps.kind, steps: steps.steps().map((s) => s.step) }))).to.deep.equal(
        EXPECTED[flow.label],
      );
    });

    it(`runs every step of ${flow.label} on its round's real state, the sends reaching the engine's next state`, async () => {
      for (const { steps } of await flowRounds(flow)) {
        const specs = steps.steps();
        for (const spec of specs) {
          const input = spec.prepare(2);
          spec.run(input, 0);
          spec.run(input, 1);
        }
        // The round's last send, run as the step runs it, ends where the engine's round ended.
        const lastSend = specs.filter((s) => s.step.startsWith('send')).at(-1);
        if (!lastSend) continue;
        const actors = lastSend.prepare(1) as AnyActor[];
        lastSend.run(actors, 0);
        expect(actors[0]!.getSnapshot().value).to.deep.equal(steps.answered.value);
        expect(actors[0]!.getSnapshot().status).to.equal(steps.kind === 'last' ? 'done' : 'active');
      }
    });

    it(`times the targets' own work on each request of ${flow.label}: the engine's round and the floor's reply`, async () => {
      const rounds = await flowRounds(flow);
      for (const { round, requestWork } of rounds) {
        const outcome = (await requestWork.engineRun.run(undefined, 0)) as { kind: string };
        expect(outcome.kind).to.equal(round.number === rounds.length ? 'complete' : 'input_required');
        const reply = JSON.parse(requestWork.floorAnswer.run(undefined, 0) as string) as Record<string, any>;
        expect(reply.id).to.equal(round.number);
        expect(reply.result.resultType).to.equal(round.number === rounds.length ? 'complete' : 'input_required');
      }
    });
  }

  it('refuses a round whose replay does not reach the state the engine sealed', async () => {
    const [, second, third] = await flowRounds(BENCH_FLOWS.find((f) => f.label === 'three-question')!);
    // Round 2's state and answer, but round 3's sealed state: the replay stops one question short.
    expect(() => new RoundSteps({ ...second!.round, sealed: third!.round.sealed! })).to.throw(/engine sealed another/);
    // An answer to a question the state does not ask.
    expect(() => new RoundSteps({ ...third!.round, answers: second!.round.answers })).to.throw(/not asked/);
  });
});
