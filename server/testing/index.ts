/**
 * `baton-mcp/testing`: the test kit for tool authors (docs/testing.md).
 * - `runFlow(tool, args, answers)`: one run through real rounds, sealed state and tasks included;
 * - `planPaths(tool)` / `walkPaths(tool)`: every path of the machine graph, replayed;
 * - `describePaths(tool)`: one mocha test per path, in one line.
 */
export {
  accept,
  answerPolicy,
  answersFirst,
  cancel,
  decline,
  runFlow,
  type Answers,
  type FlowRun,
  type RunFlowOptions,
} from './run-flow.js';
export { planPaths, type AnswerPath, type PlanOptions } from './path-plan.js';
export { pathProblem, walkPath, walkPaths, type WalkOptions, type WalkedPath } from './walk-paths.js';
export { describePaths, type DescribePathsOptions } from './describe-paths.js';
export { testKeyRing } from './test-key-ring.js';
