/**
 * The server side of the package (`baton-mcp/server`): serve tools over HTTP or stdio, or embed the
 * transport-free service; the key ring, the single-use guards, task stores and queues, and what
 * a URL-elicitation page needs. Authoring lives in `baton-mcp`, the test kit in `baton-mcp/testing`.
 */
export { createServer, type BatonOptions, type BatonServer } from './create-server.js';
export { createMcpService, type McpService, type McpServiceOptions, type TaskOptions } from './create-mcp-service.js';
export { serve, type ServeOptions, type Serving } from './serve.js';
export { applyV8Settings, V8_SETTINGS } from './v8-settings.js';
export { serveStdio, principalFromEnvironment, type StdioConnection, type StdioOptions } from './stdio/index.js';
export { KeyRing, parseKeyRing, generateKeyEntry, type SealingKey } from './engine/state/key-ring.js';
export {
  MemoryReplayGuard,
  DEFAULT_SINGLE_USE_QUOTA,
  type ReplayGuard,
  type GuardClaim,
  type ClaimScope,
} from './engine/state/replay-guard.js';
export { RedisReplayGuard, type RedisReplayGuardOptions } from './engine/state/redis-replay-guard.js';
export { verifyPageVisit, type PageVisit } from './engine/state/page-reference.js';
export {
  MemoryTaskStore,
  RedisTaskStore,
  MemoryTaskQueue,
  BullMqTaskQueue,
  type TaskStore,
  type TaskQueue,
  type TaskRecord,
  type TaskStatus,
  TASKS_EXTENSION,
  TERMINAL_TASK_STATUSES,
  isTerminalStatus,
  type RedisTaskStoreOptions,
  type BullMqTaskQueueOptions,
} from './engine/tasks/index.js';
export { stderrLogger, silentLogger, type Logger } from './engine/logger.js';
export { ConfigurationError } from './engine/configuration-error.js';
export {
  AuthenticationError,
  bearerChallenge,
  pageVisitor,
  parseStaticTokens,
  staticBearerTokens,
  type Authenticate,
  type AuthenticationFailure,
  type OriginPolicy,
  type ProtectedResourceOptions,
  type OAuthOptions,
} from './http/index.js';
export { PROTOCOL_VERSION } from './protocol/index.js';
export type { Principal, ScopeHierarchy, ServerInfo } from './protocol/index.js';
export { AccessTokenVerifier, ASYMMETRIC_ALGORITHMS, type AccessTokenOptions } from './identity/index.js';
export { Telemetry, INSTRUMENTATION_NAME, type TelemetryOptions } from './telemetry/index.js';
export {
  otlpTraceExporter,
  type OtlpTraceExporter,
  type OtlpTraceExporterConfig,
} from './settings/otlp-trace-exporter.js';
