/** The protocol layer's public API: MCP 2026-07-28 over JSON-RPC, independent of any transport. */
export { McpDispatcher, type Dispatched, type ServerInfo, type TransportContext } from './mcp-dispatcher.js';
export { createMcpDispatcher, type McpDispatcherOptions } from './create-mcp-dispatcher.js';
export { ProtocolError, headerMismatch, invalidParams, methodNotFound } from './protocol-error.js';
export { toProtocolError } from './engine-errors.js';
export { ErrorCode, errorCatalogue, httpStatusOf, type CatalogueEntry } from './error-catalogue.js';
export {
  errorResponse,
  parseJson,
  readableId,
  resultResponse,
  type JsonRpcRequest,
  type JsonRpcNotification,
  type JsonRpcResponse,
  type RequestId,
} from './json-rpc.js';
export { META, readRequestMeta, type RequestMeta } from './request-meta.js';
export { PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './protocol-version.js';
export { ANONYMOUS, type Principal } from './principal.js';
export { InsufficientScope, ScopePolicy, type ScopeHierarchy } from './scope-policy.js';
export { catalogueScopes } from './scoped-methods.js';
export {
  callerKey,
  DEFAULT_LONG_LIVED_LIMITS,
  LongLivedBudget,
  type LongLivedKind,
  type LongLivedLimit,
  type LongLivedLimits,
} from './long-lived-budget.js';
export { isRetryLaterStatus, limitExceeded, type LimitScope } from './limit-exceeded.js';
export { PreparedNotification, type SharedJson } from './prepared-notification.js';
export { DEFAULT_LISTEN_OPTIONS, type ListenOptions } from './methods/subscriptions-listen.js';
export { describeTool } from './methods/tools-list.js';
export {
  isJsonRpcResponse,
  isLegacyMessage,
  isLegacyVersion,
  LEGACY_PROTOCOL_VERSIONS,
  LegacyService,
  LegacySession,
  type LegacyServiceOptions,
} from './legacy/index.js';
