/**
 * The authoring API, and all of it: what a tool author imports (the `baton-mcp` package entry).
 * Types and XState only: importing it loads no Redis, BullMQ, Koa, ajv or crypto.
 */
export { toolSetup, type ToolSetup, type ToolSetupSpec } from './tool-setup.js';
export type { AskBuilders, AskedState, AskFor, InputState, ResultState } from './ask-builders.js';
export type {
  AnswerEventsOf,
  FormContentOf,
  FormResponse,
  FormSpec,
  FromObjectSchema,
  ObjectSchema,
  QuestionSpec,
  ResponseOf,
  ResponsesOf,
  RootsResponse,
  RootsSpec,
  SamplingResult,
  SamplingSpec,
  UrlResponse,
  UrlSpec,
} from './question-specs.js';
export {
  askForm,
  askRoots,
  askSampling,
  askUrl,
  answerEvent,
  formContent,
  reportProgress,
  INPUT_TAG,
  INPUT_META,
  PROGRESS_EVENT,
  SINGLE_USE_TAG,
  type AnswerEvent,
  type CancelEvent,
  type DeclineEvent,
  type FormAcceptEvent,
  type FormSchema,
  type ProgressReport,
  type Question,
  type QuestionKind,
  type RootsResultEvent,
  type SamplingResultEvent,
  type UnsupportedEvent,
} from './input-states.js';
export {
  defineTool,
  type AnswersFor,
  type OneOrList,
  type ToolAnnotations,
  type ToolDefinition,
  type ToolExample,
  type ToolSpec,
  type UntypedResponses,
} from './tool-definition.js';
export {
  definePrompt,
  type Completions,
  type PromptArgument,
  type PromptDefinition,
  type PromptSpec,
} from './prompt-definition.js';
export {
  defineResource,
  defineResourceTemplate,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
} from './resource-definition.js';
export type { FlowDefinition, FlowOptions } from './flow-definition.js';
export type { EarlierVersion, Migration, MigrationMeta } from './tool-versions.js';
export type { CatalogueFields, Icon } from './catalogue-fields.js';
export { reportLog, LOG_EVENT, LOGGING_LEVELS, type LogReport, type LoggingLevel } from './log-reports.js';
export { respondWith } from './instant-machine.js';
export { withActorInputs, type ActorInput } from './machine-json.js';
export { idempotencyKey, startsTask, TASK_TAG, type TaskSupport } from './task-authoring.js';
export type { PromptMessage, PromptResult } from '../flow/prompt-result.js';
export type { ResourceContents } from '../flow/resource-result.js';
