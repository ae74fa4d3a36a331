/**
 * The round kernel (round-kernel.ts) and the parts of a round that flows, tasks and the start-up
 * checks share. `flow/` (a round in a request) and `tasks/` (a step on a worker) both build on
 * this folder and never on each other.
 */
export { RoundKernel, STUCK_MESSAGE, MISSING_CAPABILITY_MESSAGE, type RoundKernelOptions } from './round-kernel.js';
export type { RoundSpec, RequestRoundSpec, TaskStepSpec } from './round-spec.js';
export type { RoundOutcome, RequestRoundOutcome, TaskStepOutcome, FailureReason, Pause } from './round-outcome.js';
export type { Progress } from './machine-reports.js';
export type { XStatePath } from './round-actor.js';
export type { Persisted } from './paused-snapshot.js';
export type { PageRefMinter } from './pending-questions.js';
export type { TaskTimer } from './scheduled-timers.js';
export { finalToolResult, toToolResult, toolError, type ResultCheck } from './tool-result.js';
export { DEFAULT_ANSWER_MAX_LENGTH } from './answers.js';
export { roundEnd, flowEndOf } from './round-report.js';
