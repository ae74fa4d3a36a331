/**
 * Refusals by a documented limit (docs/errors.md, LimitExceeded): nothing ran, and the caller may
 * retry later. A limit on one caller answers 429, a limit on the whole instance 503; both travel
 * with Retry-After on HTTP, and `data.reason` names the limit so a client can tell them apart
 * without reading the text.
 */
import { ErrorCode } from './error-catalogue.js';
import { ProtocolError } from './protocol-error.js';

export type LimitScope = 'client' | 'instance';

export function limitExceeded(
  reason: string,
  message: string,
  scope: LimitScope,
  data: Record<string, unknown> = {},
): ProtocolError {
  return new ProtocolError(ErrorCode.LimitExceeded, message, { reason, ...data }, scope === 'client' ? 429 : 503);
}

/** Whether an HTTP status is a LimitExceeded refusal's, which asks the client to come back later. */
export function isRetryLaterStatus(status: number): boolean {
  return status === 429 || status === 503;
}
