/**
 * `baton call` in a terminal: a tool's arguments and each round's questions prompted from their
 * JSON Schemas with @inquirer/prompts (enums as a select, booleans as a yes/no, numbers within
 * their limits, strings checked for length, pattern and format, enum arrays as checkboxes,
 * anything else as JSON). Every elicitation offers decline and cancel before its fields; a URL
 * question prints its link and waits until the user says they are done. Prompts write to the
 * given output (stderr by default) so stdout carries only the result.
 */
import { checkbox, confirm, input, number, select } from '@inquirer/prompts';
import type { InputRequest } from '../engine/index.js';
/** Where prompts read and write (a terminal's streams, or a test's). */
export interface PromptIo {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  /** Aborts the prompt (it then rejects with AbortPromptError). */
  signal?: AbortSignal;
}
type Context = PromptIo;

type Schema = Record<string, any>;

/** Options of a single-choice schema: `enum` (legacy `enumNames` as labels) or `oneOf`/`anyOf` of `const`. */
export function schemaChoices(schema: Schema): Array<{ value: unknown; name: string }> | undefined {
  if (Array.isArray(schema.enum)) {
    return schema.enum.map((value: unknown, i: number) => ({ value, name: String(schema.enumNames?.[i] ?? value) }));
  }
  const list = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(list) && list.length > 0 && list.every((o: Schema) => o && 'const' in o)) {
    return list.map((o: Schema) => ({ value: o.const, name: String(o.title ?? o.const) }));
  }
  return undefined;
}

const FORMATS: Record<string, (value: string) => boolean> = {
  email: (v) => /^[^@\s]+@[^@\s]+$/.test(v),
  uri: (v) => URL.canParse(v),
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)),
  'date-time': (v) => /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v)),
};

/** Why a string breaks its schema's limits, or true. */
function checkString(schema: Schema, value: string, required: boolean): string | true {
  if (value === '') return required ? 'An answer is required.' : true;
  if (typeof schema.minLength === 'number' && value.length < schema.minLength) {
    return `At least ${schema.minLength} characters.`;
  }
  if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) {
    return `At most ${schema.maxLength} characters.`;
  }
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) {
    return `Must match ${schema.pattern}.`;
  }
  const format = FORMATS[schema.format];
  if (format && !format(value)) return `Must be a valid ${schema.format}.`;
  return true;
}

/** One property's prompt; undefined means "left out" (only for optional properties). */
async function askField(name: string, schema: Schema, required: boolean, initial: unknown, io: Context) {
  const message = `${schema.title ?? name}${schema.description ? ` (${schema.description})` : ''}`;
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  const fallback = initial ?? schema.default;
  const choices = schemaChoices(schema);
  if (choices) {
    const SKIP = Symbol('skip');
    const picked = await select<unknown>(
      {
        message,
        choices: [...choices, ...(required ? [] : [{ value: SKIP, name: '(leave out)' }])],
        ...(fallback !== undefined ? { default: fallback } : {}),
      },
      io,
    );
    return picked === SKIP ? undefined : picked;
  }
  if (type === 'boolean') {
    return confirm({ message, default: fallback === true }, io);
  }
  const itemChoices = type === 'array' && schema.items ? schemaChoices(schema.items) : undefined;
  if (itemChoices) {
    const picked = await checkbox<unknown>(
      {
        message,
        choices: itemChoices.map((c) => ({ ...c, checked: Array.isArray(fallback) && fallback.includes(c.value) })),
        validate: (items) =>
          (typeof schema.minItems === 'number' && items.length < schema.minItems
            ? `Pick at least ${schema.minItems}.`
            : undefined) ??
          (typeof schema.maxItems === 'number' && items.length > schema.maxItems
            ? `Pick at most ${schema.maxItems}.`
            : true),
      },
      io,
    );
    return picked.length === 0 && !required ? undefined : picked;
  }
  if (type === 'number' || type === 'integer') {
    return number(
      {
        message,
        required,
        step: type === 'integer' ? 1 : 'any',
        ...(typeof fallback === 'number' ? { default: fallback } : {}),
        ...(typeof (schema.minimum ?? schema.exclusiveMinimum) === 'number'
          ? { min: schema.minimum ?? schema.exclusiveMinimum }
          : {}),
        ...(typeof (schema.maximum ?? schema.exclusiveMaximum) === 'number'
          ? { max: schema.maximum ?? schema.exclusiveMaximum }
          : {}),
      },
      io,
    );
  }
  if (type === 'string') {
    const value = await input(
      {
        message,
        ...(typeof fallback === 'string' ? { default: fallback } : {}),
        validate: (v) => checkString(schema, v, required),
      },
      io,
    );
    return value === '' && !required ? undefined : value;
  }
  // Objects, mixed arrays, anything else: typed as JSON.
  const text = await input(
    {
      message: `${message} as JSON`,
      ...(fallback !== undefined ? { default: JSON.stringify(fallback) } : {}),
      validate: (v) => {
        if (v.trim() === '') return required ? 'An answer is required.' : true;
        try {
          JSON.parse(v);
          return true;
        } catch {
          return 'Not valid JSON.';
        }
      },
    },
    io,
  );
  return text.trim() === '' ? undefined : JSON.parse(text);
}

/** An object schema's properties prompted one by one; `initial` gives the defaults. */
export async function askObject(schema: Schema | undefined, initial: Record<string, unknown>, io: Context) {
  const required = new Set<string>(schema?.required ?? []);
  const values: Record<string, unknown> = {};
  for (const [name, property] of Object.entries<Schema>(schema?.properties ?? {})) {
    const value = await askField(name, property ?? {}, required.has(name), initial[name], io);
    if (value !== undefined) values[name] = value;
  }
  return values;
}

/** One question's `inputResponses` value, from the person at the terminal. */
export async function askQuestion(
  key: string,
  request: InputRequest,
  io: Context & { output: NodeJS.WritableStream },
): Promise<unknown> {
  // Read as the server sent it: the prompts below show what is there and tolerate what is not.
  const p: Record<string, any> = request.params ?? {};
  const say = (line: string) => io.output.write(`${line}\n`);
  if (request.method === 'elicitation/create') {
    const url = p.mode === 'url';
    say(`\n[${key}] ${p.message ?? ''}`);
    if (url) say(`  Open: ${p.url}`);
    const action = await select<'accept' | 'decline' | 'cancel'>(
      {
        message: url ? 'When you have finished on that page' : 'Answer this question?',
        choices: [
          { value: 'accept', name: url ? "I'm done" : 'Answer' },
          { value: 'decline', name: 'Decline' },
          { value: 'cancel', name: 'Cancel' },
        ],
      },
      io,
    );
    if (action !== 'accept' || url) return { action };
    return { action, content: await askObject(p.requestedSchema, {}, io) };
  }
  if (request.method === 'sampling/createMessage') {
    say(`\n[${key}] The server asks for a model reply to:`);
    for (const message of p.messages ?? [])
      say(`  ${message.role}: ${message.content?.text ?? JSON.stringify(message.content)}`);
    const text = await input({ message: 'Reply' }, io);
    return { role: 'assistant', content: { type: 'text', text }, model: 'baton-call', stopReason: 'endTurn' };
  }
  if (request.method === 'roots/list') {
    say(`\n[${key}] The server asks for your roots.`);
    const uris = await input({ message: 'Root URIs, separated by spaces', default: `file://${process.cwd()}` }, io);
    return {
      roots: uris
        .split(/\s+/)
        .filter(Boolean)
        .map((uri) => ({ uri })),
    };
  }
  throw new Error(`baton call cannot answer a ${request.method} question (key "${key}")`);
}
