/**
 * The one seam where engine failures become wire errors. Security failures keep their opaque
 * message; capability gaps carry `requiredCapabilities` (spec, basic "Error Codes").
 */
import { EngineError } from '../engine/index.js';
import { ErrorCode } from './error-catalogue.js';
import { ProtocolError } from './protocol-error.js';

export function toProtocolError(error: EngineError): ProtocolError {
  switch (error.reason) {
    case 'invalid_state':
      return new ProtocolError(ErrorCode.InvalidParams, 'Invalid params: invalid or expired requestState');
    case 'invalid_responses':
      return new ProtocolError(ErrorCode.InvalidParams, `Invalid params: ${error.message}`);
    case 'missing_capability':
      return new ProtocolError(ErrorCode.MissingRequiredClientCapability, 'Missing required client capability', {
        requiredCapabilities: error.data?.requiredCapabilities ?? {},
      });
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
  }
}
