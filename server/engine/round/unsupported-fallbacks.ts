/**
 * Questions the client cannot be asked (it did not declare the capability) take their
 * `onUnsupported` path when the state has one (input-states.ts), in a round and in a task step.
 */
import type { AnyActor, AnyMachineSnapshot } from 'xstate';
import { answerEvent } from '../authoring/input-states.js';
import type { ClientCapabilities } from '../mcp-shapes.js';
import { mayHandle, mayHandleAnyEndingWith } from './handled-events.js';
import { clientSupports, pendingQuestions, toInputRequest } from './pending-questions.js';

/** The end of every `answerEvent.unsupported(key)` type (`answer.<key>.unsupported`). */
const UNSUPPORTED_SUFFIX = '.unsupported';

/** How many times a round or a task step may take fallbacks and settle again (a machine may chain them). */
export const MAX_FALLBACK_HOPS = 16;

/** Sends `answer.<key>.unsupported` for each such question the state handles; true if any was sent. */
export function takeFallbacks(actor: AnyActor, snapshot: AnyMachineSnapshot, caps: ClientCapabilities): boolean {
  // Most machines have no fallback at all: nothing to look at.
  if (!mayHandleAnyEndingWith(snapshot.machine, UNSUPPORTED_SUFFIX)) return false;
  let sent = false;
  for (const { question } of pendingQuestions(snapshot)) {
    const event = { type: answerEvent.unsupported(question.key) };
    if (!mayHandle(snapshot.machine, event.type)) continue;
    const current = actor.getSnapshot() as AnyMachineSnapshot;
    // Most questions have no fallback: only build the request for those that do.
    if (!current.can(event) || clientSupports(question, toInputRequest(question, current.context), caps)) continue;
    actor.send(event);
    sent = true;
  }
  return sent;
}
