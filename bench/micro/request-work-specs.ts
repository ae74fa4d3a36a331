/**
 * The targets' own request work for one round of a bench flow, as micro-benchmark steps: the code
 * bench/targets/request-work.ts times under load, here timed in a hot loop. For Baton, the round
 * through `FlowEngine#run`, on the engine's real call; for the floor, `floorAnswer` on the request
 * the load generator sends it for that round (its constant state echoed, the same answers).
 */
import type { FlowEngine } from '../../server/engine/index.js';
import type { BenchFlow } from '../flows/bench-flows.js';
import { requestBody } from '../load/mcp-exchange.js';
import { constantState, floorAnswer, floorReplies } from '../targets/floor-target.js';
import type { WalkedRound } from './flow-round-walk.js';
import type { StepSpec } from './measure.js';

const none = () => undefined;

export interface RequestWorkSpecs {
  engineRun: StepSpec<undefined>;
  floorAnswer: StepSpec<undefined>;
}

export function requestWorkSpecs(flow: BenchFlow, round: WalkedRound, engine: FlowEngine): RequestWorkSpecs {
  const replies = floorReplies();
  // Round numbers start at 1; the floor's state after asking round r (from 0) answers request r + 2.
  const requestState = round.number === 1 ? undefined : constantState(flow, round.number - 2);
  const text = requestBody(round.number, flow, {
    ...(requestState === undefined ? {} : { requestState }),
    ...(round.inputResponses ? { inputResponses: round.inputResponses } : {}),
  }).toString('utf8');
  if (floorAnswer(replies, text).includes('"error"')) {
    throw new Error(`the floor has no reply for ${flow.label} request ${round.number}`);
  }
  return {
    engineRun: {
      step: 'FlowEngine.run',
      what: 'the whole round in the engine',
      prepare: none,
      run: () => engine.run(round.call),
    },
    floorAnswer: {
      step: 'floor answer',
      what: "the floor's JSON work for the same request",
      prepare: none,
      run: () => floorAnswer(replies, text),
    },
  };
}
