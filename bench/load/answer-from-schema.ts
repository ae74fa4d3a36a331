import { isRecord } from '../../server/engine/index.js';
/**
 * How the load generator answers an `inputRequests` entry: from the request alone, as a scripted
 * user would. Form elicitation is accepted with content that satisfies the requested schema (the
 * first enum value, `true` for booleans, a string of the minimum length, the minimum number); URL
 * elicitation is accepted; sampling and roots get fixed, well-formed results.
 */

type Schema = Record<string, unknown>;

/** A value for one property of a form schema (the spec's flat primitives and string arrays). */
export function valueForProperty(name: string, schema: Schema): unknown {
  const oneOf = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (oneOf && isRecord(oneOf[0]) && 'const' in oneOf[0]) return oneOf[0].const;
  switch (schema.type) {
    case 'boolean':
      return true;
    case 'integer':
    case 'number': {
      const minimum = typeof schema.minimum === 'number' ? schema.minimum : undefined;
      const maximum = typeof schema.maximum === 'number' ? schema.maximum : undefined;
      const value = minimum ?? (maximum !== undefined ? Math.min(1, maximum) : 1);
      return schema.type === 'integer' ? Math.ceil(value) : value;
    }
    case 'array': {
      // Multi-select: the first `minItems` choices (at least one), or made-up strings.
      const items = isRecord(schema.items) ? schema.items : {};
      const choices = Array.isArray(items.enum) ? items.enum : Array.isArray(items.anyOf) ? items.anyOf : [];
      const count = Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1);
      if (choices.length === 0) return Array.from({ length: count }, (_, i) => `bench-${name}-${i}`);
      return choices.slice(0, count).map((choice) => (isRecord(choice) && 'const' in choice ? choice.const : choice));
    }
    default:
      return stringFor(name, schema);
  }
}

function stringFor(name: string, schema: Schema): string {
  if (schema.format === 'email') return 'bench@example.com';
  if (schema.format === 'uri') return 'https://example.com/';
  if (schema.format === 'date') return '2026-07-28';
  if (schema.format === 'date-time') return '2026-07-28T00:00:00Z';
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  let text = `bench-${name}`;
  while (text.length < minLength) text += 'x';
  return text.slice(0, Math.max(minLength, Math.min(text.length, maxLength)));
}

/** Content for a form schema: every property, required or not, gets a valid value. */
export function contentForSchema(schema: unknown): Record<string, unknown> {
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  const content: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    content[name] = valueForProperty(name, isRecord(property) ? property : {});
  }
  return content;
}

/** The response to one `inputRequests` entry (a bare result, as `inputResponses` carries it). */
export function answerInputRequest(request: unknown): unknown {
  if (!isRecord(request)) throw new Error('inputRequests entry is not an object');
  const params = isRecord(request.params) ? request.params : {};
  switch (request.method) {
    case 'elicitation/create':
      return params.mode === 'url'
        ? { action: 'accept' }
        : { action: 'accept', content: contentForSchema(params.requestedSchema) };
    case 'sampling/createMessage':
      return { role: 'assistant', content: { type: 'text', text: 'bench' }, model: 'bench', stopReason: 'endTurn' };
    case 'roots/list':
      return { roots: [{ uri: 'file:///bench', name: 'bench' }] };
    default:
      throw new Error(`cannot answer an input request of method ${String(request.method)}`);
  }
}

/** Answers every entry of an `inputRequests` map, under the same keys. */
export function answerAll(inputRequests: unknown): Record<string, unknown> {
  if (!isRecord(inputRequests)) throw new Error('inputRequests is not an object');
  const responses: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(inputRequests)) responses[key] = answerInputRequest(request);
  return responses;
}
