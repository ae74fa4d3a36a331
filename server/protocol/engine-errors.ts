/**
 * The one seam where engine failures become wire errors. Security failures keep their opaque
 * message; capability gaps carry `requiredCapabilities` (spec, basic "Error Codes").
 */
import { EngineError, isRecord } from '../engine/index.js';
import { ErrorCode } from './error-catalogue.js';
import { ProtocolError } from './protocol-error.js';
import { limitExceeded } from './limit-exceeded.js';

/**
 * Any failure of a request as the error sent for it: wire errors as they are, engine errors
 * mapped, anything else an opaque -32603 after `unexpected` has logged it.
 */
export function toWireError(error: unknown, unexpected: (error: unknown) => void): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (error instanceof EngineError) return toProtocolError(error);
  unexpected(error);
  return new ProtocolError(ErrorCode.InternalError, 'Internal error');
}

export function toProtocolError(error: EngineError): ProtocolError {
  switch (error.reason) {
    case 'invalid_state':
      return new ProtocolError(ErrorCode.InvalidParams, 'Invalid params: invalid or expired requestState');
    case 'invalid_responses':
      return new ProtocolError(ErrorCode.InvalidParams, `Invalid params: ${error.message}`);
    case 'missing_capability': {
      const required = (error.data?.requiredCapabilities ?? {}) as Record<string, unknown>;
      // Some clients show only the message, so it names what is missing, not only `data`.
      const named = capabilityPaths(required).join(', ');
      return new ProtocolError(
        ErrorCode.MissingRequiredClientCapability,
        `Missing required client capability${named ? `: ${named}` : ''}`,
        { requiredCapabilities: required },
      );
    }
    case 'state_in_use':
      // `data.reason` lets a client tell "retry shortly" from a refusal without reading the text.
      return new ProtocolError(
        ErrorCode.InvalidParams,
        'Invalid params: this requestState is being processed by another request; retry shortly',
        { reason: 'request_state_in_use' },
      );
    case 'state_consumed':
      return new ProtocolError(ErrorCode.InvalidParams, 'Invalid params: this requestState was already used', {
        reason: 'request_state_used',
      });
    case 'quota_exceeded':
      // Only this caller's single-use rounds are refused; everyone else's still run.
      return new ProtocolError(ErrorCode.InvalidParams, `Invalid params: ${error.message}`, {
        reason: 'single_use_quota',
        quota: error.data?.quota,
      });
    case 'guard_unavailable':
      return new ProtocolError(
        ErrorCode.InternalError,
        'Internal error: the single-use guard is unavailable, so nothing was run; retry later',
      );
    case 'internal':
      return new ProtocolError(ErrorCode.InternalError, 'Internal error');
    case 'task_expired':
      return new ProtocolError(ErrorCode.InternalError, error.message);
    case 'limit_exceeded': {
      const { reason, scope, limit } = error.data ?? {};
      return limitExceeded(
        String(reason),
        error.message,
        scope === 'instance' ? 'instance' : 'client',
        limit === undefined ? {} : { limit },
      );
    }
  }
}

/** `{elicitation: {form: {}}, sampling: {}}` -> `['elicitation.form', 'sampling']`. */
function capabilityPaths(capabilities: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(capabilities).flatMap(([key, value]) => {
    const path = `${prefix}${key}`;
    const inner = isRecord(value) ? capabilityPaths(value, `${path}.`) : [];
    return inner.length > 0 ? inner : [path];
  });
}
