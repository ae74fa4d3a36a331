/**
 * The shape a form question's schema must have (spec, client/elicitation "Requested Schema"): a
 * flat object schema whose properties are each a schema object. A static schema is checked at
 * start-up (catalogue/machine-checks.ts); one computed from context is checked each time it is
 * asked, so a bad one fails the call naming the state instead of being re-asked until the round
 * limit (the client's answer could never validate against it).
 */
import type { Question } from '../authoring/input-states.js';
import type { InputRequest } from '../mcp-shapes.js';
import { isRecord } from '../plain-objects.js';
import { secretFields, secretFieldsMessage } from './secret-fields.js';

/** What is wrong with a form schema, or undefined. */
export function formSchemaProblem(schema: unknown): string | undefined {
  if (!isRecord(schema) || schema.type !== 'object' || !isRecord(schema.properties)) {
    return 'a form schema must be { type: "object", properties: {…} } (spec, elicitation).';
  }
  const bad = Object.entries(schema.properties).filter(([, property]) => !isRecord(property));
  if (bad.length > 0)
    return `each property of a form schema must be a schema object (not ${bad.map(([n]) => `"${n}"`).join(', ')}).`;
  return undefined;
}

/** Questions whose fixed schema passed: it cannot change, so it is checked once, not on every round. */
const fixedSchemaPassed = new WeakSet<Question>();

/**
 * Checks the request a question became, as it is asked; `where` names the tool and state (a
 * function, so the label is only built for a problem).
 */
export function askedQuestionProblem(
  question: Question,
  request: InputRequest,
  where: () => string,
): string | undefined {
  if (question.kind !== 'form' || fixedSchemaPassed.has(question)) return undefined;
  const schema = request.params?.requestedSchema;
  const shape = formSchemaProblem(schema);
  if (shape) return `${where()}: the schema computed from context is not a form schema: ${shape}`;
  const secrets = secretFields(schema, question.notSecret);
  if (secrets.length > 0) return secretFieldsMessage(where(), secrets);
  if (typeof question.schema !== 'function') fixedSchemaPassed.add(question);
  return undefined;
}
