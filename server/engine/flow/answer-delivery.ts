/**
 * Feeds a round's answers into its actor as the events the asking states handle (answers.ts),
 * and says why any answer was not taken, so its question is asked again with that reason.
 */
import type { AnyActor, AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { interpretAnswer } from './answers.js';
import type { JsonSchemaValidator } from '../json-schema-validator.js';
import { pendingQuestions, requestedSchemaOf } from './pending-questions.js';

/**
 * Feeds answers for the keys asked last round, in the order the questions were asked. Answers
 * to keys not asked are ignored; a missing answer leaves its question pending (asked again).
 */
export function deliverAnswers(
  actor: AnyActor,
  asked: readonly string[],
  responses: Record<string, unknown>,
  validator: JsonSchemaValidator,
): Record<string, string> {
  const retryReasons: Record<string, string> = {};
  const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
  // Read every answer before sending any: a malformed one refuses the round with nothing run.
  const planned: Array<{ key: string; event: AnyEventObject }> = [];
  for (const { question } of pendingQuestions(snapshot)) {
    if (!asked.includes(question.key) || !Object.hasOwn(responses, question.key)) continue;
    const schema = question.kind === 'form' ? requestedSchemaOf(question, snapshot.context) : undefined;
    const outcome = interpretAnswer(question, schema, responses[question.key], validator);
    if ('retryReason' in outcome) retryReasons[question.key] = outcome.retryReason;
    else planned.push({ key: question.key, event: outcome.event });
  }
  for (let index = 0; index < planned.length; index++) {
    const { key, event } = planned[index]!;
    const current = actor.getSnapshot() as AnyMachineSnapshot;
    // An earlier answer may have moved the machine past this question (e.g. a decline); the
    // first is still pending, as read above.
    if (index > 0 && !pendingQuestions(current).some((p) => p.question.key === key)) continue;
    if (current.can(event)) actor.send(event);
    else retryReasons[key] = 'Your last answer was not accepted.';
  }
  return retryReasons;
}
