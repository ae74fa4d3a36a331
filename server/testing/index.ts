/**
 * `baton-mcp/testing`: the test kit for tool authors (docs/testing.md).
 * - `runFlow(tool, args, answers)`: one run through real rounds, sealed state and tasks included;
 * - `planPaths(tool)` / `walkPaths(tool)`: every path of the machine, planned round by round on
 *   its own transitions (context included), replayed and checked against where the plan says it
 *   ends and what it says is asked; answer variants and actor outcomes (`done`, `fail`) walk the
 *   branches example answers do not reach;
 * - `describePaths(tool)`: one mocha test per path, in one line;
 * - `countEffects(tool)`: stand-ins that count a tool's effects in a run.
 */
export {
  accept,
  answerPolicy,
  answersFirst,
  cancel,
  decline,
  runFlow,
  type AnswerPolicy,
  type Answers,
  type FlowRun,
  type Refusal,
  type RunFlowOptions,
} from './run-flow.js';
export { done, fail, type ActorOutcome } from './actor-outcomes.js';
export { planPaths, type AnswerPath, type AnswerVariant, type AnswerVariants, type PlanOptions } from './path-plan.js';
export {
  pathProblem,
  unreachedFinals,
  walkPath,
  walkPaths,
  type PathsWalk,
  type WalkOptions,
  type WalkedPath,
} from './walk-paths.js';
export { describePaths, type DescribePathsOptions } from './describe-paths.js';
export { countEffects, effectActors, type EffectCounter } from './effect-counter.js';
export { testKeyRing } from './test-key-ring.js';
