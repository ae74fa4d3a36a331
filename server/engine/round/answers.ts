/**
 * Turns one `inputResponses` value into the event the asking state handles, or into a reason to
 * ask again. A value that is not even shaped like a response is the client's protocol error
 * (spec, MRTR "Error Handling"); content that fails the asked schema is the user's mistake, so
 * the question is asked again with a short reason.
 */
import type { AnyEventObject } from 'xstate';
import { EngineError } from '../engine-error.js';
import { answerEvent, type Question } from '../authoring/input-states.js';
import type { JsonSchemaValidator } from '../json-schema-validator.js';
import { isRecord } from '../plain-objects.js';

export type AnswerOutcome = { event: AnyEventObject } | { retryReason: string };

const ELICIT_ACTIONS = new Set(['accept', 'decline', 'cancel']);

function malformed(key: string, expected: string): EngineError {
  return new EngineError('invalid_responses', `inputResponses.${key} is not a valid ${expected}`);
}

/** Content values the spec allows in an accepted form: string, number, boolean, string[]. */
function isFormContent(content: unknown): content is Record<string, unknown> {
  if (!isRecord(content)) return false;
  return Object.values(content).every(
    (v) =>
      typeof v === 'string' ||
      typeof v === 'number' ||
      typeof v === 'boolean' ||
      (Array.isArray(v) && v.every((item) => typeof item === 'string')),
  );
}

/**
 * Longest free-text answer kept when the asked schema sets no `maxLength` (docs/xstate.md,
 * "Bounded state"). An answer lands in the context and is sealed into every later round, so a
 * client must not be able to make the state arbitrarily large by answering at length.
 */
export const DEFAULT_ANSWER_MAX_LENGTH = 4096;

function maxLengthOf(schema: unknown): number {
  const max = isRecord(schema) ? schema.maxLength : undefined;
  return typeof max === 'number' ? max : DEFAULT_ANSWER_MAX_LENGTH;
}

/** The first string (or string in an array) longer than its property allows, or undefined. */
function overlongText(requestedSchema: object | undefined, content: Record<string, unknown>): string | undefined {
  const properties =
    isRecord(requestedSchema) && isRecord(requestedSchema.properties) ? requestedSchema.properties : {};
  for (const [name, value] of Object.entries(content)) {
    const property = properties[name];
    const items = isRecord(property) ? property.items : undefined;
    const strings = typeof value === 'string' ? [[value, maxLengthOf(property)] as const] : [];
    if (Array.isArray(value)) for (const item of value) strings.push([item as string, maxLengthOf(items)]);
    for (const [text, max] of strings) {
      if (text.length > max) return `${name} is longer than ${max} characters`;
    }
  }
  return undefined;
}

export function interpretAnswer(
  question: Question,
  requestedSchema: object | undefined,
  response: unknown,
  validator: JsonSchemaValidator,
): AnswerOutcome {
  const { key } = question;
  switch (question.kind) {
    case 'form':
    case 'url': {
      if (!isRecord(response) || typeof response.action !== 'string' || !ELICIT_ACTIONS.has(response.action)) {
        throw malformed(key, 'ElicitResult');
      }
      const action = response.action as 'accept' | 'decline' | 'cancel';
      if (action !== 'accept') return { event: { type: answerEvent[action](key) } };
      if (question.kind === 'url') return { event: { type: answerEvent.accept(key) } };
      const content = response.content ?? {};
      if (!isFormContent(content)) throw malformed(key, 'ElicitResult');
      const problem =
        (requestedSchema ? validator.check(requestedSchema, content) : undefined) ??
        overlongText(requestedSchema, content);
      if (problem) return { retryReason: `Your last answer was not accepted: ${problem}.` };
      return { event: { type: answerEvent.accept(key), content } };
    }
    case 'sampling': {
      if (
        !isRecord(response) ||
        typeof response.role !== 'string' ||
        typeof response.model !== 'string' ||
        response.content === undefined
      ) {
        throw malformed(key, 'CreateMessageResult');
      }
      return { event: { type: answerEvent.result(key), result: response } };
    }
    case 'roots': {
      const roots = isRecord(response) ? response.roots : undefined;
      if (!Array.isArray(roots) || !roots.every((r) => isRecord(r) && typeof r.uri === 'string')) {
        throw malformed(key, 'ListRootsResult');
      }
      return { event: { type: answerEvent.result(key), roots } };
    }
  }
}
