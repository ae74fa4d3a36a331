/**
 * A pending question as a plain HTML form (the console in `baton dev` only, docs/console.md,
 * "Answering in `baton dev`"), and the form's fields back into an answer as tasks/update takes
 * it (`{ action: 'accept', content }` or `{ action: 'decline' }`). Simple fields only, as Try it
 * draws them: strings, numbers and integers, booleans, and enums of strings; a question of another
 * kind (a URL, sampling) or with other fields is answered from the client. The schema and message
 * come from the question as the machine asked it; every piece is escaped. The answer is checked
 * against the schema where every answer is, in the step (a malformed one is asked again).
 */
import type { PendingQuestion } from '../engine/index.js';
import { escapeHtml } from './console-page.js';

interface Field {
  name: string;
  type: 'string' | 'number' | 'integer' | 'boolean';
  title: string;
  description?: string;
  choices?: string[];
  required: boolean;
  maxLength?: number;
}

/** The question's fields, or undefined when it is not a form the console can draw. */
export function formFields(question: PendingQuestion): Field[] | undefined {
  if (question.method !== 'elicitation/create') return undefined;
  const schema = question.requestedSchema;
  const properties = schema?.properties;
  if (!properties || typeof properties !== 'object') return undefined;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as unknown[]) : []);
  const fields: Field[] = [];
  for (const [name, raw] of Object.entries(properties as Record<string, Record<string, unknown>>)) {
    const type = raw?.type;
    if (type !== 'string' && type !== 'number' && type !== 'integer' && type !== 'boolean') return undefined;
    const choices = Array.isArray(raw.enum) && raw.enum.every((v) => typeof v === 'string') ? raw.enum : undefined;
    fields.push({
      name,
      type,
      title: typeof raw.title === 'string' ? raw.title : name,
      ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
      ...(choices ? { choices: choices as string[] } : {}),
      required: required.has(name),
      ...(typeof raw.maxLength === 'number' ? { maxLength: raw.maxLength } : {}),
    });
  }
  return fields;
}

function input(field: Field): string {
  const name = escapeHtml(`f.${field.name}`);
  const required = field.required ? ' required' : '';
  if (field.type === 'boolean') return `<input type="checkbox" name="${name}" value="true">`;
  if (field.choices) {
    const empty = field.required ? '' : '<option value=""></option>';
    return `<select name="${name}"${required}>${empty}${field.choices
      .map((c) => `<option value="${escapeHtml(c)}">${escapeHtml(c)}</option>`)
      .join('')}</select>`;
  }
  if (field.type === 'number' || field.type === 'integer') {
    return `<input type="number" name="${name}" step="${field.type === 'integer' ? '1' : 'any'}"${required}>`;
  }
  const max = field.maxLength !== undefined ? ` maxlength="${field.maxLength}"` : '';
  return `<input type="text" name="${name}"${max}${required}>`;
}

/** One form per pending question, posting to `action` with the page's token. */
export function answerForms(action: string, csrf: string, questions: readonly PendingQuestion[]): string {
  if (questions.length === 0) return '';
  const forms = questions.map((question) => {
    const fields = formFields(question);
    const heading = `<h3><code>${escapeHtml(question.key)}</code></h3>${
      question.message ? `<p>${escapeHtml(question.message)}</p>` : ''
    }`;
    if (!fields) return `${heading}<p class="muted">This question is answered from the client.</p>`;
    const rows = fields
      .map(
        (field) =>
          `<label>${escapeHtml(field.title)}${field.required ? ' *' : ''} ${input(field)}${
            field.description ? ` <span class="muted">${escapeHtml(field.description)}</span>` : ''
          }</label>`,
      )
      .join('\n');
    return `${heading}<form class="answer" method="post" action="${escapeHtml(action)}" data-question="${escapeHtml(question.key)}">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="key" value="${escapeHtml(question.key)}">
${rows}
<div><button type="submit" name="action" value="accept">Answer</button> <button type="submit" name="action" value="decline" formnovalidate>Decline</button></div>
</form>`;
  });
  return `<h2>Answer (baton dev)</h2>
<p class="muted">Development only: answers go to the task as tasks/update sends them.</p>
${forms.join('\n')}`;
}

/** The posted form as the answer tasks/update takes, or undefined when it does not fit the question. */
export function answerFromForm(question: PendingQuestion, form: URLSearchParams): unknown {
  const action = form.get('action');
  if (action === 'decline') return { action: 'decline' };
  if (action !== 'accept') return undefined;
  const fields = formFields(question);
  if (!fields) return undefined;
  const content: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = form.get(`f.${field.name}`);
    if (field.type === 'boolean') {
      content[field.name] = raw === 'true';
      continue;
    }
    if (raw === null || raw === '') continue;
    content[field.name] = field.type === 'number' || field.type === 'integer' ? Number(raw) : raw;
  }
  return { action: 'accept', content };
}
