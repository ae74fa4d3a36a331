/** The 2025-11-25 compatibility layer: sessions and live questions over the shared handlers. */
export {
  LegacyService,
  toLegacyResult,
  DEFAULT_ANSWER_TIMEOUT_MS,
  DEFAULT_SESSION_TTL_SECONDS,
  type LegacyContext,
  type LegacyOutcome,
  type LegacyServiceOptions,
} from './legacy-service.js';
export { LegacySession, type Send } from './legacy-session.js';
export { LEGACY_PROTOCOL_VERSIONS, isLegacyVersion, negotiateLegacyVersion } from './legacy-versions.js';
export { isJsonRpcResponse, isLegacyMessage } from './legacy-message.js';
