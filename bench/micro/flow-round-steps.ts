/**
 * The unavoidable steps of every bench flow, round by round, each timed on its own on the real
 * round (flow-round-walk.ts plays it, round-steps.ts says what the round performs). An average
 * request of a flow is a mix of its rounds, so the figure the limit uses per request is the sum
 * over the flow's rounds divided by its requests: the first round builds the initial state, the
 * last seals nothing, and the parallel flow's middle round takes two answers.
 */
import { randomBytes } from 'node:crypto';
import { FlowEngine, KeyRing, silentLogger } from '../../server/engine/index.js';
import { requestsPerFlow, type BenchFlow, type FlowLabel } from '../flows/bench-flows.js';
import { walkFlow } from './flow-round-walk.js';
import { measureStep, type MeasureOptions, type StepTiming } from './measure.js';
import { RoundSteps, type RoundKind } from './round-steps.js';
import { requestWorkSpecs } from './request-work-specs.js';

export interface RoundTiming {
  /** 1 for the flow's first request. */
  number: number;
  kind: RoundKind;
  /** The keys the round answered and the keys it asked. */
  answered: string[];
  asked: string[];
  steps: StepTiming[];
  /** The sum of the steps' medians, µs. */
  sum: number;
  /**
   * The targets' own work for this request, hot (request-work-specs.ts): Baton's whole round in
   * the engine, and the floor's JSON work. Absent in runs saved before they were measured.
   */
  engineRun?: StepTiming;
  floorAnswer?: StepTiming;
}

export interface FlowStepsTiming {
  flow: FlowLabel;
  rounds: RoundTiming[];
  requests: number;
  /** The sum over the rounds, and that sum per request (µs). */
  sum: number;
  perRequest: number;
  /** `FlowEngine#run` and the floor's JSON work per request, hot: sums over the rounds ÷ requests. */
  engineRunPerRequest?: number;
  floorAnswerPerRequest?: number;
}

/** Every round of a flow, with the steps it performs, ready to time (untimed). */
export async function flowRounds(flow: BenchFlow) {
  const keyRing = new KeyRing([{ id: 'bench', secret: new Uint8Array(randomBytes(32)) }]);
  const engine = new FlowEngine({ keyRing, logger: silentLogger });
  const walked = await walkFlow(flow, engine, keyRing);
  return walked.map((round) => ({
    round,
    steps: new RoundSteps(round),
    requestWork: requestWorkSpecs(flow, round, engine),
  }));
}

const sumOf = (timings: StepTiming[]) => timings.reduce((total, s) => total + s.medianMicros, 0);

export async function measureFlowSteps(flow: BenchFlow, options: MeasureOptions): Promise<FlowStepsTiming> {
  const rounds: RoundTiming[] = [];
  for (const { round, steps, requestWork } of await flowRounds(flow)) {
    const timings: StepTiming[] = [];
    for (const spec of steps.steps()) timings.push(await measureStep(spec, options));
    rounds.push({
      number: round.number,
      kind: steps.kind,
      answered: round.answers.map((a) => a.key),
      asked: round.asked,
      steps: timings,
      sum: sumOf(timings),
      engineRun: await measureStep(requestWork.engineRun, options),
      floorAnswer: await measureStep(requestWork.floorAnswer, options),
    });
  }
  const sum = rounds.reduce((total, r) => total + r.sum, 0);
  const requests = requestsPerFlow(flow);
  const perRequest = (timing: (r: RoundTiming) => StepTiming | undefined) =>
    rounds.reduce((total, r) => total + timing(r)!.medianMicros, 0) / requests;
  return {
    flow: flow.label,
    rounds,
    requests,
    sum,
    perRequest: sum / requests,
    engineRunPerRequest: perRequest((r) => r.engineRun),
    floorAnswerPerRequest: perRequest((r) => r.floorAnswer),
  };
}

export async function measureAllFlowSteps(
  flows: readonly BenchFlow[],
  options: MeasureOptions,
): Promise<FlowStepsTiming[]> {
  const result: FlowStepsTiming[] = [];
  for (const flow of flows) result.push(await measureFlowSteps(flow, options));
  return result;
}
