/**
 * Canned answers for running a flow's happy path without a user: each question is answered from
 * what it asks (a form from its schema's `examples`, `default`, `const` or first `enum` value,
 * else a plain value of the right type; a URL by accepting; sampling and roots with a fixed
 * reply). A tool's own `exampleAnswers` take precedence.
 */
import type { InputRequest } from '../engine/index.js';

type Schema = Record<string, unknown>;

const STRING_FORMATS: Record<string, string> = {
  email: 'user@example.com',
  uri: 'https://example.com',
  url: 'https://example.com',
  date: '2026-07-28',
  'date-time': '2026-07-28T12:00:00Z',
  time: '12:00:00',
};

export const EXAMPLE_SAMPLING_RESULT = {
  role: 'assistant',
  content: { type: 'text', text: 'An example answer from the model.' },
  model: 'example-model',
  stopReason: 'endTurn',
} as const;

export const EXAMPLE_ROOTS_RESULT = { roots: [{ uri: 'file:///home/user/project', name: 'project' }] } as const;

function numberFor(schema: Schema, integer: boolean): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const exclusiveMin = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  let value = min ?? (exclusiveMin !== undefined ? exclusiveMin + (integer ? 1 : 0.5) : 1);
  if (max !== undefined && value > max) value = max;
  return integer ? Math.ceil(value) : value;
}

function stringFor(schema: Schema): string {
  const format = typeof schema.format === 'string' ? STRING_FORMATS[schema.format] : undefined;
  let value = format ?? 'example';
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  while (value.length < minLength) value += ' example';
  if (typeof schema.maxLength === 'number') value = value.slice(0, schema.maxLength);
  return value;
}

/** A local `$ref` (`#/$defs/address`) resolved against the root schema. */
function dereference(schema: Schema, root: Schema): Schema | undefined {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
  let current: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    current = (current as Schema | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return typeof current === 'object' && current !== null ? (current as Schema) : undefined;
}

/** A value the schema accepts, as a person filling the form plausibly would. */
export function exampleValue(schema: Schema | undefined, root: Schema | undefined = schema): unknown {
  if (!schema || typeof schema !== 'object') return 'example';
  const referenced = root ? dereference(schema, root) : undefined;
  if (referenced && referenced !== schema) return exampleValue(referenced, root);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const choices = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (Array.isArray(choices) && choices.length > 0) return exampleValue(choices[0], root);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'boolean':
      return true;
    case 'integer':
      return numberFor(schema, true);
    case 'number':
      return numberFor(schema, false);
    case 'array': {
      const item = exampleValue(schema.items as Schema | undefined, root);
      const count = Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1);
      return Array.from({ length: count }, () => item);
    }
    case 'object':
      return exampleObject(schema, root);
    default:
      return stringFor(schema);
  }
}

/** Every property of an object schema filled with its example value. */
export function exampleObject(schema: Schema | undefined, root: Schema | undefined = schema): Record<string, unknown> {
  const properties = (schema?.properties ?? {}) as Record<string, Schema>;
  return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, exampleValue(property, root)]));
}

/** The `inputResponses` entry a cooperative client and user would send for one request. */
export function exampleAnswer(request: InputRequest): unknown {
  switch (request.method) {
    case 'elicitation/create':
      return request.params?.mode === 'url'
        ? { action: 'accept' }
        : { action: 'accept', content: exampleObject(request.params?.requestedSchema as Schema | undefined) };
    case 'sampling/createMessage':
      return EXAMPLE_SAMPLING_RESULT;
    case 'roots/list':
      return EXAMPLE_ROOTS_RESULT;
  }
}
