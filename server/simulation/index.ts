/**
 * The simulation: a client walking a flow through real rounds (`runRounds`), with an answer
 * policy, over any `send` (a server in process, or HTTP), and the server in process the docs and
 * the test kit run flows on (`simulate`). The docs pages, `baton/testing` and `baton call` all
 * stand on it, and on nothing of each other.
 */
export { runRounds, taskPollMs, type RoundsObserver, type RunRoundsOptions, type WaitingIn } from './run-rounds.js';
export type { Exchange, Round, RoundsRun, RpcError, RpcRequest, RunEnding, Send } from './round-exchange.js';
export { answersFirst, defaultAnswers, type AnswerPolicy, type Answers, type AskedQuestion } from './answer-policy.js';
export {
  exampleAnswer,
  exampleObject,
  exampleValue,
  EXAMPLE_ROOTS_RESULT,
  EXAMPLE_SAMPLING_RESULT,
} from './example-answers.js';
export {
  exampleParams,
  exampleUri,
  flowMethod,
  flowName,
  type FlowKind,
  type SimulatedFlow,
} from './simulated-flow.js';
export type { SimulatedServerOptions } from './simulated-server.js';
export { requestEnvelope, type ClientIdentity } from './request-envelope.js';
export { simulate, type SimulateOptions } from './simulate.js';
