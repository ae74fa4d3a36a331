/**
 * A flow answered live, for clients of the older wire (2025-11-25) that take questions as
 * server-to-client requests on the call's own stream instead of `input_required` results.
 *
 * It is the same round as MRTR, run again and again inside one request: each time the machine
 * waits, its questions go to `answer` (the transport sends them and waits for the client's
 * responses), and the responses re-enter the engine exactly as `inputResponses` would, with the
 * paused state sealed and held in this process's memory, never sent to the client. So answers are
 * validated, mapped, re-asked, guarded (single use) and capability-checked (-32021) by the very
 * code that serves 2026-07-28 clients; nothing here interprets an answer.
 */
import type { FlowEngine } from './flow-engine.js';
import type { FlowCall, FlowOutcome } from './flow-round.js';
import type { InputRequest } from '../mcp-shapes.js';

/** What the client made of one round of questions. */
export type LiveAnswers =
  /** One response per key (an `ElicitResult`, `CreateMessageResult` or `ListRootsResult`). */
  | { kind: 'answers'; responses: Record<string, unknown> }
  /** The client could not answer (an error response, or no answer in time): the flow fails. */
  | { kind: 'failed'; message: string }
  /** The client went away or cancelled the call. */
  | { kind: 'aborted' };

export type AnswerLive = (inputRequests: Record<string, InputRequest>) => Promise<LiveAnswers>;

export async function runLiveFlow(engine: FlowEngine, call: FlowCall, answer: AnswerLive): Promise<FlowOutcome> {
  // A live call starts fresh: the MRTR fields belong to the other wire.
  const { inputResponses: _responses, requestState: _state, ...first } = call;
  let outcome = await engine.run(first);
  while (outcome.kind === 'input_required') {
    const answered = await answer(outcome.inputRequests);
    if (answered.kind === 'aborted' || call.signal?.aborted) return { kind: 'aborted' };
    if (answered.kind === 'failed') return { kind: 'failed', message: answered.message };
    outcome = await engine.run({ ...first, requestState: outcome.requestState, inputResponses: answered.responses });
  }
  return outcome;
}
