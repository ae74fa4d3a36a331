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
  /** The machine settled in no recognised state: a bug in the tool or in Baton. */
  | 'internal';

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
