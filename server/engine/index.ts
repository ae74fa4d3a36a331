/** The engine's public API: the authoring API (authoring/index.ts), the flow engine and its parts. No Koa, no JSON-RPC. */
export * from './authoring/index.js';
export { ToolRegistry } from './catalogue/tool-registry.js';
export { LiveToolRegistry, toolListChanges, type ToolListChanges } from './catalogue/live-tool-registry.js';
export {
  FlowEngine,
  DEFAULT_MAX_STATE_LENGTH,
  DEFAULT_STATE_TTL_SECONDS,
  type FlowEngineOptions,
} from './flow/flow-engine.js';
export { applyStartOn, startingOn } from './versions/start-on.js';
export {
  connectRedis,
  describeRedisTarget,
  isRedisUnavailable,
  type RedisConnection,
  type RedisNode,
  type RedisTarget,
} from './redis-target.js';
export {
  FlowReplay,
  forkKeyRing,
  type FlowReplayOptions,
  type OpenedForReplay,
  type ReplayStep,
} from './flow/flow-replay.js';
export { EngineError, type EngineErrorReason } from './engine-error.js';
export {
  FairShare,
  highWaterMark,
  lateShare,
  shareRefusal,
  type ShareLimits,
  type ShareRefusal,
} from './fair-share.js';
export { Cancellation } from './cancellation.js';
export { ConfigurationError } from './configuration-error.js';
export { KeyRing, parseKeyRing, generateKeyEntry, type SealingKey } from './state/key-ring.js';
export { openState, sealState, type StateClaims, type SealedContent } from './state/sealed-state.js';
export { structuralVersion } from './state/structural-version.js';
export { finalToolResult, toToolResult, toolError, type ResultCheck } from './round/tool-result.js';
export type { XStatePath } from './round/round-actor.js';
export { stderrLogger, silentLogger, type Logger } from './logger.js';
export { installedVersion, outsideWindow, windowRange, type VersionWindow } from './version-window.js';
export { MemoryReplayGuard, type GuardClaim, type ReplayGuard } from './state/replay-guard.js';
export { RedisReplayGuard } from './state/redis-replay-guard.js';
export type { ClientCapabilities, InputRequest } from './mcp-shapes.js';
export type { FlowCall, FlowOutcome } from './flow/flow-round.js';
export { isLoggingLevel } from './authoring/log-reports.js';
export { runLiveFlow, type LiveAnswers } from './flow/live-flow.js';
export { machineProblems } from './catalogue/machine-checks.js';
export { PromptRegistry } from './catalogue/prompt-registry.js';
export { toPromptResult } from './flow/prompt-result.js';
export { ResourceRegistry } from './catalogue/resource-registry.js';
export { toResourceContents } from './flow/resource-result.js';
export { parseUriTemplate } from './catalogue/uri-template.js';
export { isRecord, definedFields } from './plain-objects.js';
export { eachStateNode } from './state-nodes.js';
export { findHeaderParams, type HeaderParam } from './catalogue/header-param-schema.js';
export {
  TaskManager,
  startTaskRuntime,
  MemoryTaskStore,
  MemoryTaskQueue,
  RedisTaskStore,
  BullMqTaskQueue,
  declaresTasks,
  TASKS_EXTENSION,
  isTerminalStatus,
  TaskLimitError,
  TaskFollowers,
  type TaskQuotas,
  type TaskView,
  type TaskStore,
  type TaskHead,
  type TaskQueue,
  type TaskRecord,
  OperatorTasks,
  TaskQueryError,
  DEFAULT_STUCK_THRESHOLDS,
  MAX_TASK_PAGE,
  type TaskListQuery,
  type TaskPage,
  type TaskSummary,
  type TaskDetail,
  type StuckTask,
  type TimelineEntry,
  type PendingQuestion,
  type RevealedValues,
  MAX_HISTORY_ENTRIES,
  type StuckReason,
  type StuckThresholds,
  type CancelOutcome,
} from './tasks/index.js';
export {
  checkToolEffects,
  docsEffectProblems,
  invokedActors,
  reusableEffectWarnings,
  taskStartStates,
} from './catalogue/effect-checks.js';
export { openPageReference, verifyPageVisit } from './state/page-reference.js';
