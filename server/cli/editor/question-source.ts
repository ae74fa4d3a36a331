/**
 * A new question as the engine reads it (kind, key, message, and for a form the answer's JSON
 * Schema built from the page's field list), and the text that writes it into a source: declared
 * once in `toolSetup({ questions })` when the machine is built from one (so `event.content` stays
 * typed), else whole in the state's meta, as a JSON machine file holds it.
 */
import { INPUT_META, INPUT_TAG } from '../../engine/index.js';
import type { QuestionDraft, QuestionField } from './editor-edit.js';
import { literal, type LiteralStyle } from './source-literal.js';

function fieldSchema(field: QuestionField): Record<string, unknown> {
  const type = field.type === 'enum' ? 'string' : field.type;
  return {
    type,
    ...(field.title ? { title: field.title } : {}),
    ...(field.type === 'enum' ? { enum: field.options } : {}),
  };
}

/** The answer schema of a form question. */
export function answerSchema(question: QuestionDraft): Record<string, unknown> {
  const required = question.fields.filter((f) => f.required).map((f) => f.name);
  return {
    type: 'object',
    properties: Object.fromEntries(question.fields.map((f) => [f.name, fieldSchema(f)])),
    ...(required.length > 0 ? { required } : {}),
  };
}

/** The question's declaration (what `toolSetup({ questions: { <key>: … } })` holds). */
export function questionSpec(question: QuestionDraft): Record<string, unknown> {
  return question.kind === 'url'
    ? { kind: 'url', message: question.message, url: question.url }
    : { kind: 'form', message: question.message, schema: answerSchema(question) };
}

/**
 * The properties a question state starts with, as lines at `indent`: its tag and its meta,
 * naming the declared question by key, or holding it whole.
 */
export function questionStateLines(
  question: QuestionDraft,
  style: LiteralStyle,
  declared: boolean,
  indent: string,
): string {
  const meta = { [INPUT_META]: declared ? { key: question.key } : { key: question.key, ...questionSpec(question) } };
  const key = (name: string) => (style === 'json' ? `"${name}"` : name);
  return [
    `${indent}${key('tags')}: ${literal([INPUT_TAG], style)},`,
    `${indent}${key('meta')}: ${literal(meta, style)},`,
  ].join('\n');
}

/** The declaration's text, as one property of the `questions` object, at `indent`. */
export function questionDeclaration(question: QuestionDraft, indent: string): string {
  const spec = questionSpec(question);
  const inner = `${indent}  `;
  const lines = Object.entries(spec).map(([name, value]) => `${inner}${name}: ${literal(value, 'ts')},`);
  return `${indent}${question.key}: {\n${lines.join('\n')}\n${indent}},`;
}
