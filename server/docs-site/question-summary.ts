/**
 * What an input state asks, in words, for diagram labels and doc tables. A question may be a
 * function of the context; then only its kind and key are known without running the machine, and
 * the summary says so instead of guessing (the conversation shows the real text).
 */
import type { Question } from '../engine/index.js';

export interface QuestionSummary {
  kind: Question['kind'];
  key: string;
  /** `form «window»`, `URL «link»`, `sampling «greeting»`, `roots «client_roots»`. */
  heading: string;
  /** The message, the URL or the prompt when it is fixed; undefined when it depends on context. */
  text?: string;
  /** One line per form field: `window: now | tonight | weekend`. */
  fields: string[];
}

const KIND_NAMES: Record<Question['kind'], string> = { form: 'form', url: 'URL', sampling: 'sampling', roots: 'roots' };

/** A JSON Schema fragment described in a few words: `string`, `now | tonight`, `integer 1..5`. */
export function describeSchemaType(schema: Record<string, unknown> | undefined): string {
  if (!schema || typeof schema !== 'object') return 'any';
  if (Array.isArray(schema.enum)) return describeValues(schema.enum);
  if ('const' in schema) return JSON.stringify(schema.const);
  const choices = (schema.oneOf ?? schema.anyOf) as Array<Record<string, unknown>> | undefined;
  if (Array.isArray(choices) && choices.every((c) => c && 'const' in c))
    return describeValues(choices.map((c) => c.const));
  if (typeof schema.$ref === 'string') return `see ${schema.$ref}`;
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : String(schema.type ?? 'any');
  if (type === 'array') {
    const items = schema.items as Record<string, unknown> | undefined;
    return `list of ${describeSchemaType(items)}`;
  }
  const [min, max] = type === 'string' ? [schema.minLength, schema.maxLength] : [schema.minimum, schema.maximum];
  const unit = type === 'string' ? ' chars' : '';
  const format = typeof schema.format === 'string' ? `, ${schema.format}` : '';
  if (min !== undefined && max !== undefined) return `${type} (${min}–${max}${unit}${format})`;
  if (min !== undefined) return `${type} (≥ ${min}${unit}${format})`;
  if (max !== undefined) return `${type} (≤ ${max}${unit}${format})`;
  return typeof schema.format === 'string' ? `${type} (${schema.format})` : type;
}

function describeValues(values: unknown[]): string {
  const shown = values.slice(0, 5).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  return values.length > 5 ? `${shown.join(' | ')} | …` : shown.join(' | ');
}

function fieldLines(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const { properties, required } = schema as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(properties ?? {}).map(
    ([name, property]) => `${name}${required?.includes(name) ? '' : '?'}: ${describeSchemaType(property)}`,
  );
}

function fixed(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function samplingText(request: unknown): string | undefined {
  if (typeof request !== 'object' || request === null) return undefined;
  const messages = (request as { messages?: Array<{ content?: { text?: unknown } }> }).messages;
  return fixed(messages?.[0]?.content?.text);
}

export function summarizeQuestion(question: Question): QuestionSummary {
  const heading = `${KIND_NAMES[question.kind] ?? question.kind} «${question.key}»`;
  switch (question.kind) {
    case 'form':
      return {
        kind: 'form',
        key: question.key,
        heading,
        ...optionalText(fixed(question.message)),
        fields: fieldLines(question.schema),
      };
    case 'url':
      return { kind: 'url', key: question.key, heading, ...optionalText(fixed(question.message)), fields: [] };
    case 'sampling':
      return {
        kind: 'sampling',
        key: question.key,
        heading,
        ...optionalText(samplingText(question.request)),
        fields: [],
      };
    default:
      return { kind: question.kind, key: question.key, heading, fields: [] };
  }
}

function optionalText(text: string | undefined): { text?: string } {
  return text === undefined ? {} : { text };
}
