/**
 * Failures the engine reports to its caller. The protocol layer maps each reason to a wire error
 * at exactly one seam (server/protocol/engine-errors.ts); nothing here knows JSON-RPC.
 */
export type EngineErrorReason =
  /** A requestState that does not open, is expired, or is bound to something else. Always opaque. */
  | 'invalid_state'
  /** `inputResponses` (or one answer in it) does not have the shape of a response. */
  | 'invalid_responses'
  /** The machine must ask a question of a kind the client did not declare. */
  | 'missing_capability'
  /** A single-use state is being run by another request right now. */
  | 'state_in_use'
  /** A single-use state was already presented and its outcome is not known (it was cancelled). */
  | 'state_consumed'
  /** The caller holds its quota of live single-use claims: its own single-use rounds wait. */
  | 'quota_exceeded'
  /** The single-use guard (Redis) cannot be reached: single-use flows fail closed. */
  | 'guard_unavailable'
  /** The machine settled in no recognised state: a bug in the tool or in Baton. */
  | 'internal'
  /** A task outlived its ttlMs (the message says so; tasks.md allows failing it then). */
  | 'task_expired'
  /** A documented limit refused it (data: `reason`, `scope` client or instance, `limit`). */
  | 'limit_exceeded';

export class EngineError extends Error {
  override name = 'EngineError';
  constructor(
    readonly reason: EngineErrorReason,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}
