/**
 * Which wire a message belongs to. A 2026-07-28 request always names its revision in
 * `params._meta`; a message without it is the older wire's when it opens a session (`initialize`)
 * or comes inside one. Anything else stays with the 2026-07-28 core, which answers it as before.
 */
import { isRecord } from '../../engine/index.js';
import { META } from '../request-meta.js';

export function hasModernMeta(message: unknown): boolean {
  if (!isRecord(message) || !isRecord(message.params) || !isRecord(message.params._meta)) return false;
  return typeof message.params._meta[META.protocolVersion] === 'string';
}

export function isLegacyMessage(message: unknown, inSession: boolean): boolean {
  if (hasModernMeta(message)) return false;
  // Only an initialize *request* opens a session: one sent as a notification (no id) is left to
  // the core, which accepts and ignores notifications, so it opens nothing.
  return inSession || (isRecord(message) && message.method === 'initialize' && 'id' in message);
}

/** A JSON-RPC response (the client answering one of the server's questions), not a request or notification. */
export function isJsonRpcResponse(message: unknown): message is Record<string, unknown> {
  return isRecord(message) && !('method' in message) && ('result' in message || 'error' in message);
}
