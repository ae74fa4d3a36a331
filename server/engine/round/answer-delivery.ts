/**
 * Feeds a round's answers into its actor as the events the asking states handle (answers.ts),
 * and says why any answer was not taken, so its question is asked again with that reason.
 */
import type { AnyActor, AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { interpretAnswer } from './answers.js';
import type { JsonSchemaValidator } from '../json-schema-validator.js';
import { pendingQuestions, requestedSchemaOf } from './pending-questions.js';

export interface DeliveryOptions {
  /**
   * The schema each form question was asked with, by question key (a task records its requests);
   * without it, the schema is computed again from the context the question was asked in.
   */
  askedSchemas?: Record<string, object | undefined>;
  /**
   * A response not even shaped like one is asked again instead of refusing the round: a task
   * step can no longer refuse an answer its client was told was taken.
   */
  reaskMalformed?: boolean;
}

const MALFORMED_REASON = 'Your last answer could not be read.';
const NOT_ACCEPTED_REASON = 'Your last answer was not accepted.';

/**
 * Feeds answers for the keys asked last time, in the order the questions were asked. Answers
 * to keys not asked are ignored; a missing answer leaves its question pending (asked again). A
 * malformed response throws EngineError `invalid_responses` unless `reaskMalformed`.
 */
export function deliverAnswers(
  actor: AnyActor,
  asked: readonly string[],
  responses: Record<string, unknown>,
  validator: JsonSchemaValidator,
  options?: DeliveryOptions,
): Record<string, string> {
  const retryReasons: Record<string, string> = {};
  const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
  // Read every answer before sending any: a malformed one refuses the round with nothing run.
  const planned: Array<{ key: string; event: AnyEventObject }> = [];
  for (const { question } of pendingQuestions(snapshot)) {
    const { key } = question;
    if (!asked.includes(key) || !Object.hasOwn(responses, key)) continue;
    let schema: object | undefined;
    if (question.kind === 'form') {
      schema = options?.askedSchemas ? options.askedSchemas[key] : requestedSchemaOf(question, snapshot.context);
    }
    let outcome;
    try {
      outcome = interpretAnswer(question, schema, responses[key], validator);
    } catch (error) {
      if (!options?.reaskMalformed) throw error;
      outcome = { retryReason: MALFORMED_REASON };
    }
    if ('retryReason' in outcome) retryReasons[key] = outcome.retryReason;
    else planned.push({ key, event: outcome.event });
  }
  for (let index = 0; index < planned.length; index++) {
    const { key, event } = planned[index]!;
    const current = actor.getSnapshot() as AnyMachineSnapshot;
    // An earlier answer may have moved the machine past this question (e.g. a decline); the
    // first is still pending, as read above.
    if (index > 0 && !pendingQuestions(current).some((p) => p.question.key === key)) continue;
    actor.send(event);
    const after = actor.getSnapshot() as AnyMachineSnapshot;
    // Most answers are taken and move the machine on, and `can()` would select their transitions
    // a second time. XState answers an event no transition takes with the snapshot it had, so only
    // then, or when the actor failed, is `can()` asked, on the snapshot before: it says whether a
    // transition took the answer and changed nothing, and a guard that throws throws here as it
    // did when `can()` was asked first (the request fails: docs/xstate.md).
    if ((after === current || after.status === 'error') && !current.can(event)) {
      retryReasons[key] = NOT_ACCEPTED_REASON;
    }
  }
  return retryReasons;
}
