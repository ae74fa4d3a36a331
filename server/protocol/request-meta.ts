/**
 * The per-request `_meta` every 2026-07-28 request carries instead of an initialize handshake
 * (spec, basic "Per-request protocol fields"). Nothing is remembered between requests.
 */
import { ErrorCode } from './error-catalogue.js';
import { ProtocolError } from './protocol-error.js';

export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

const LOGGING_LEVELS = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);

export interface RequestMeta {
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  progressToken?: string | number;
}

/** Reads `params._meta`, or throws -32602 with HTTP 400 naming the missing key. */
export function readRequestMeta(params: Record<string, unknown> | undefined): RequestMeta {
  const missing = (what: string) =>
    new ProtocolError(ErrorCode.InvalidParams, `Invalid params: ${what} is required in every request`, undefined, 400);
  const meta = params?._meta;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) throw missing('params._meta');
  const m = meta as Record<string, unknown>;
  const protocolVersion = m[META.protocolVersion];
  if (typeof protocolVersion !== 'string') throw missing(`_meta["${META.protocolVersion}"]`);
  const clientCapabilities = m[META.clientCapabilities];
  if (typeof clientCapabilities !== 'object' || clientCapabilities === null || Array.isArray(clientCapabilities)) {
    throw missing(`_meta["${META.clientCapabilities}"]`);
  }
  // Baton sends no log messages, but an unknown level is still refused (spec, utilities/logging: SHOULD).
  const logLevel = m[META.logLevel];
  if (logLevel !== undefined && !LOGGING_LEVELS.has(logLevel as string)) {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `Invalid params: _meta["${META.logLevel}"] must be one of ${[...LOGGING_LEVELS].join(', ')}`,
      undefined,
      400,
    );
  }
  const progressToken = m.progressToken;
  return {
    protocolVersion,
    clientCapabilities: clientCapabilities as Record<string, unknown>,
    ...(typeof progressToken === 'string' || typeof progressToken === 'number' ? { progressToken } : {}),
  };
}
