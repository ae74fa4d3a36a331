/** The engine's public API: authoring helpers, the flow engine and its parts. No Koa, no JSON-RPC. */
export {
  askForm,
  askRoots,
  askSampling,
  askUrl,
  answerEvent,
  formContent,
  INPUT_TAG,
  INPUT_META,
  type AnswerEvent,
  type FormAcceptEvent,
  type DeclineEvent,
  type CancelEvent,
  type SamplingResultEvent,
  type RootsResultEvent,
  type Question,
  type QuestionKind,
  type FormSchema,
} from './authoring/input-states.js';
export { toolSetup, type ToolSetup, type ToolSetupSpec } from './authoring/tool-setup.js';
export type { InputState } from './authoring/ask-builders.js';
export type {
  AnswerEventsOf,
  FormContentOf,
  FormSpec,
  FromObjectSchema,
  ObjectSchema,
  QuestionSpec,
  UrlSpec,
} from './authoring/question-specs.js';
export { defineTool, type ToolDefinition, type ToolSpec, type ToolAnnotations } from './authoring/tool-definition.js';
export type { FlowDefinition, FlowOptions } from './authoring/flow-definition.js';
export { ToolRegistry } from './catalogue/tool-registry.js';
export {
  FlowEngine,
  DEFAULT_MAX_ROUNDS,
  DEFAULT_MAX_STATE_LENGTH,
  DEFAULT_STATE_TTL_SECONDS,
  DEFAULT_TIME_BUDGET_MS,
  type FlowCall,
  type FlowEngineOptions,
  type FlowOutcome,
} from './flow/flow-engine.js';
export { EngineError, type EngineErrorReason } from './engine-error.js';
export { ConfigurationError } from './configuration-error.js';
export { KeyRing, parseKeyRing, generateKeyEntry, type SealingKey } from './state/key-ring.js';
export { openState, sealState, type StateClaims, type SealedContent } from './state/sealed-state.js';
export { structuralVersion } from './state/structural-version.js';
export { toToolResult, toolError } from './flow/tool-result.js';
export { stderrLogger, silentLogger, type Logger } from './logger.js';
export {
  DEFAULT_SINGLE_USE_QUOTA,
  MemoryReplayGuard,
  type ClaimScope,
  type GuardClaim,
  type ReplayGuard,
} from './state/replay-guard.js';
export { RedisReplayGuard, type RedisReplayGuardOptions } from './state/redis-replay-guard.js';
export { SINGLE_USE_TAG } from './authoring/input-states.js';
export type { CallToolResult, ClientCapabilities, ContentBlock, InputRequest } from './mcp-shapes.js';
export {
  reportProgress,
  PROGRESS_EVENT,
  type ProgressReport,
  type UnsupportedEvent,
} from './authoring/input-states.js';
export type { Progress } from './flow/flow-engine.js';
export {
  reportLog,
  isLoggingLevel,
  LOG_EVENT,
  LOGGING_LEVELS,
  type LogReport,
  type LoggingLevel,
} from './authoring/log-reports.js';
export { runLiveFlow, type AnswerLive, type LiveAnswers } from './flow/live-flow.js';
export { respondWith } from './authoring/instant-machine.js';
export { machineProblems, type MachineCheckOptions } from './catalogue/machine-checks.js';
export { withActorInputs, type ActorInput } from './authoring/machine-json.js';
export {
  definePrompt,
  type PromptDefinition,
  type PromptSpec,
  type PromptArgument,
  type Completions,
} from './authoring/prompt-definition.js';
export { PromptRegistry } from './catalogue/prompt-registry.js';
export { toPromptResult, type PromptMessage, type PromptResult } from './flow/prompt-result.js';
export {
  defineResource,
  defineResourceTemplate,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
} from './authoring/resource-definition.js';
export { ResourceRegistry, type ResolvedResource } from './catalogue/resource-registry.js';
export { toResourceContents, type ResourceContents } from './flow/resource-result.js';
export { parseUriTemplate, type UriTemplate } from './catalogue/uri-template.js';
export { isRecord, definedFields } from './plain-objects.js';
export { findHeaderParams, type HeaderParam } from './catalogue/header-param-schema.js';
export {
  idempotencyKey,
  startsTask,
  TASK_TAG,
  TaskManager,
  TaskRunner,
  MemoryTaskStore,
  MemoryTaskQueue,
  RedisTaskStore,
  BullMqTaskQueue,
  declaresTasks,
  TASKS_EXTENSION,
  type TaskSupport,
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
} from './catalogue/effect-checks.js';
export {
  openPageReference,
  verifyPageVisit,
  type PageReferenceClaims,
  type PageVisit,
} from './state/page-reference.js';
