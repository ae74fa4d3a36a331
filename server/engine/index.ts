/** The engine's public API: the authoring API (authoring/index.ts), the flow engine and its parts. No Koa, no JSON-RPC. */
export * from './authoring/index.js';
export { ToolRegistry } from './catalogue/tool-registry.js';
export { LiveToolRegistry, toolListChanges, type ToolListChanges } from './catalogue/live-tool-registry.js';
export {
  FlowEngine,
  DEFAULT_MAX_ROUNDS,
  DEFAULT_MAX_STATE_LENGTH,
  DEFAULT_STATE_TTL_SECONDS,
  DEFAULT_TIME_BUDGET_MS,
  type FlowEngineOptions,
} from './flow/flow-engine.js';
export { EngineError, type EngineErrorReason } from './engine-error.js';
export { Cancellation, abortSignalOf } from './cancellation.js';
export { ConfigurationError } from './configuration-error.js';
export { KeyRing, parseKeyRing, generateKeyEntry, type SealingKey } from './state/key-ring.js';
export { openState, sealState, type StateClaims, type SealedContent } from './state/sealed-state.js';
export { structuralVersion } from './state/structural-version.js';
export { toToolResult, toolError } from './round/tool-result.js';
export type { XStatePath } from './round/round-actor.js';
export { stderrLogger, silentLogger, type Logger } from './logger.js';
export {
  DEFAULT_SINGLE_USE_QUOTA,
  MemoryReplayGuard,
  type ClaimScope,
  type GuardClaim,
  type ReplayGuard,
} from './state/replay-guard.js';
export { RedisReplayGuard, type RedisReplayGuardOptions } from './state/redis-replay-guard.js';
export type { CallToolResult, ClientCapabilities, ContentBlock, InputRequest } from './mcp-shapes.js';
export type { FlowCall, FlowOutcome, Progress } from './flow/flow-round.js';
export { isLoggingLevel } from './authoring/log-reports.js';
export { runLiveFlow, type AnswerLive, type LiveAnswers } from './flow/live-flow.js';
export { machineProblems, type MachineCheckOptions } from './catalogue/machine-checks.js';
export { PromptRegistry } from './catalogue/prompt-registry.js';
export { toPromptResult } from './flow/prompt-result.js';
export { ResourceRegistry, type ResolvedResource } from './catalogue/resource-registry.js';
export { toResourceContents } from './flow/resource-result.js';
export { parseUriTemplate, type UriTemplate } from './catalogue/uri-template.js';
export { isRecord, definedFields } from './plain-objects.js';
export { findHeaderParams, type HeaderParam } from './catalogue/header-param-schema.js';
export {
  TaskManager,
  TaskRunner,
  startTaskRuntime,
  MemoryTaskStore,
  MemoryTaskQueue,
  RedisTaskStore,
  BullMqTaskQueue,
  declaresTasks,
  TASKS_EXTENSION,
  TERMINAL_TASK_STATUSES,
  isTerminalStatus,
  DEFAULT_TASK_QUOTAS,
  TaskLimitError,
  TaskFollowers,
  type TaskQuotas,
  type TaskView,
  type TaskStore,
  type TaskQueue,
  type TaskRecord,
  type TaskStatus,
} from './tasks/index.js';
export {
  checkToolEffects,
  docsEffectProblems,
  invokedActors,
  reusableEffectWarnings,
  taskStartStates,
} from './catalogue/effect-checks.js';
export {
  openPageReference,
  verifyPageVisit,
  type PageReferenceClaims,
  type PageVisit,
} from './state/page-reference.js';
