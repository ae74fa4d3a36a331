/**
 * The responses the plan tries at one question, as the `inputResponses` values a client sends:
 * for a form, the test's answer variants for that key, else the tool's example answers (each
 * listed one, or one made from the schema) and each with every boolean field flipped, so both
 * sides of a yes/no guard are walked; then decline and cancel. A URL question is accepted,
 * declined or cancelled; sampling and roots get the example result the docs use.
 */
import type { Question, ToolDefinition } from '../engine/index.js';
import { requestedSchemaOf } from '../engine/round/pending-questions.js';
import { EXAMPLE_ROOTS_RESULT, EXAMPLE_SAMPLING_RESULT, exampleObject } from '../simulation/index.js';
import { acceptVariants } from './answer-variants.js';

type Schema = Record<string, unknown>;

/** The schema as the client sees it in this context, or undefined when computing it throws. */
function schemaIn(question: Question & { kind: 'form' }, context: unknown): Schema | undefined {
  try {
    return requestedSchemaOf(question, context) as Schema;
  } catch {
    return undefined;
  }
}

/** The accepts to try by default: the tool's example answers (each listed one), else one from the schema; then booleans flipped. */
function defaultAccepts(tool: ToolDefinition, schema: Schema | undefined, key: string): unknown[] {
  const given = tool.exampleAnswers?.[key];
  const listed = (Array.isArray(given) ? given : given === undefined ? [] : [given])
    .map((answer) => (answer as { action?: string; content?: Schema }) ?? {})
    .filter((answer) => answer.action === 'accept' && answer.content)
    .map((answer) => answer.content!);
  const contents = listed.length > 0 ? listed : [exampleObject(schema)];
  const flipped = contents.flatMap((content) =>
    Object.entries(content)
      .filter(([, value]) => typeof value === 'boolean')
      .map(([field, value]) => ({ ...content, [field]: !value })),
  );
  return [...contents, ...flipped].map((content) => ({ action: 'accept', content }));
}

function unique<T>(values: T[]): T[] {
  const seen = new Set<string>();
  return values.filter((value) => !seen.has(JSON.stringify(value)) && seen.add(JSON.stringify(value)));
}

/** Every response the plan tries at `question`, asked in `context`. */
export function plannedResponses(
  tool: ToolDefinition,
  question: Question,
  context: unknown,
  variants: Record<string, readonly unknown[]> | undefined,
): unknown[] {
  const refusals = [{ action: 'decline' }, { action: 'cancel' }];
  switch (question.kind) {
    case 'sampling':
      return [EXAMPLE_SAMPLING_RESULT];
    case 'roots':
      return [EXAMPLE_ROOTS_RESULT];
    case 'url':
      return [{ action: 'accept' }, ...refusals];
    case 'form': {
      const schema = schemaIn(question, context);
      const given = variants?.[question.key];
      const accepts = given ? acceptVariants(question.key, given, schema) : defaultAccepts(tool, schema, question.key);
      return unique([...accepts, ...refusals]);
    }
  }
}
