/**
 * The tools a server serves, checked at start-up. Every problem is reported at once, each naming
 * the tool, the state and the fix, so a broken machine never reaches a client.
 */
import { getInitialSnapshot, type AnyStateMachine, type AnyStateNode } from 'xstate';
import { answerEvent, INPUT_META, INPUT_TAG, type Question } from './input-states.js';
import { ConfigurationError } from './configuration-error.js';
import { JsonSchemaValidator } from './json-schema-validator.js';
import { findUnserializable } from './serializable-context.js';
import type { ToolDefinition } from './tool-definition.js';

/** Spec, server/tools "Tool names": 1-128 of A-Z a-z 0-9 _ - . */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** Keys become part of event names (`answer.<key>.accept`), so they avoid dots. */
const INPUT_KEY = /^[A-Za-z0-9_-]{1,64}$/;

function eachStateNode(node: AnyStateNode, visit: (node: AnyStateNode) => void) {
  visit(node);
  for (const child of Object.values(node.states)) eachStateNode(child, visit);
}

function questionProblems(tool: string, node: AnyStateNode, keys: Map<string, string>): string[] {
  const where = `tool "${tool}", state "${node.id}"`;
  const question = (node.meta as Record<string, unknown> | undefined)?.[INPUT_META] as Question | undefined;
  const tagged = node.tags.includes(INPUT_TAG);
  if (!question && !tagged) return [];
  if (!question)
    return [`${where}: tagged "${INPUT_TAG}" but asks no question. Build it with askForm/askUrl/askSampling/askRoots.`];
  if (!tagged)
    return [`${where}: has a question but no "${INPUT_TAG}" tag. Build it with askForm/askUrl/askSampling/askRoots.`];
  const problems: string[] = [];
  if (!INPUT_KEY.test(question.key ?? '')) {
    problems.push(`${where}: input key "${question.key}" must be 1-64 characters of A-Z a-z 0-9 _ -.`);
  }
  const other = keys.get(question.key);
  if (other)
    problems.push(`${where}: input key "${question.key}" is also used by "${other}". Give each question its own key.`);
  keys.set(question.key, node.id);
  if ((question.kind === 'form' || question.kind === 'url') && !question.message) {
    problems.push(`${where}: the question has no message. Say what you are asking for.`);
  }
  if (question.kind === 'url' && !question.url) problems.push(`${where}: a URL question needs a url.`);
  if (question.kind === 'form') {
    const schema = question.schema;
    if (!schema) problems.push(`${where}: a form question needs a schema.`);
    else if (typeof schema === 'object' && (schema.type !== 'object' || typeof schema.properties !== 'object')) {
      problems.push(`${where}: a form schema must be { type: "object", properties: {…} } (spec, elicitation).`);
    }
  }
  if (question.kind === 'sampling' && !question.request)
    problems.push(`${where}: a sampling question needs a request.`);
  if (node.invoke.length > 0) {
    problems.push(
      `${where}: an input state cannot invoke actors (work must finish before a round ends). Invoke in the state before or after it.`,
    );
  }
  if (node.after.length > 0) {
    problems.push(
      `${where}: an input state cannot have "after" timers; they do not survive a round. Store a deadline in context and check it with a guard.`,
    );
  }
  const handled = new Set(node.transitions.keys());
  const needed =
    question.kind === 'sampling' || question.kind === 'roots'
      ? [answerEvent.result(question.key)]
      : [answerEvent.accept(question.key), answerEvent.decline(question.key), answerEvent.cancel(question.key)];
  for (const event of needed) {
    if (!handled.has(event))
      problems.push(`${where}: does not handle "${event}". Give the helper an on… transition for it.`);
  }
  return problems;
}

function machineProblems(tool: ToolDefinition, validator: JsonSchemaValidator): string[] {
  const problems: string[] = [];
  const machine: AnyStateMachine | undefined = tool.machine;
  if (!machine || typeof machine.transition !== 'function') {
    return [`tool "${tool.name}": machine is not an XState v5 machine (use createMachine or setup().createMachine).`];
  }
  const keys = new Map<string, string>();
  const finalOutputs = Object.values(machine.root.states).some((n) => n.type === 'final' && n.output !== undefined);
  if (finalOutputs && machine.root.output === undefined) {
    problems.push(
      `tool "${tool.name}": final states define output but the machine does not pass it on. Add \`output: ({ event }) => event.output\` at the machine's root.`,
    );
  }
  eachStateNode(machine.root, (node) => problems.push(...questionProblems(tool.name, node, keys)));
  try {
    const initial = getInitialSnapshot(machine, tool.exampleArguments ?? {});
    const problem = findUnserializable(initial.context);
    if (problem) {
      problems.push(
        `tool "${tool.name}": ${problem}; context must survive superjson across rounds. Keep functions and class instances out of context.`,
      );
    }
  } catch (error) {
    if (tool.exampleArguments) {
      problems.push(
        `tool "${tool.name}": the machine fails to start with its exampleArguments: ${(error as Error).message}`,
      );
    }
  }
  if (tool.exampleArguments && validator.check(tool.inputSchema, tool.exampleArguments)) {
    problems.push(`tool "${tool.name}": exampleArguments do not match inputSchema.`);
  }
  return problems;
}

function schemaProblems(tool: ToolDefinition, validator: JsonSchemaValidator): string[] {
  const where = `tool "${tool.name}"`;
  const schema = tool.inputSchema as Record<string, unknown> | undefined;
  if (!schema || typeof schema !== 'object' || schema.type !== 'object') {
    return [
      `${where}: inputSchema must be a JSON Schema object with "type": "object" at the root (spec, server/tools).`,
    ];
  }
  const problems: string[] = [];
  for (const [label, s] of [
    ['inputSchema', schema],
    ['outputSchema', tool.outputSchema],
  ] as const) {
    if (!s) continue;
    try {
      validator.compile(s);
    } catch (error) {
      problems.push(`${where}: ${label} is not a valid JSON Schema: ${(error as Error).message}`);
    }
  }
  return problems;
}

export class ToolRegistry {
  readonly #tools = new Map<string, ToolDefinition>();
  readonly #validator = new JsonSchemaValidator();

  constructor(tools: ToolDefinition[]) {
    const problems: string[] = [];
    for (const tool of tools) {
      if (!TOOL_NAME.test(tool.name ?? '')) {
        problems.push(`tool "${tool.name}": names are 1-128 characters of A-Z a-z 0-9 _ - . (spec, server/tools).`);
      }
      if (this.#tools.has(tool.name)) problems.push(`tool "${tool.name}": defined twice; tool names must be unique.`);
      if (!tool.description) problems.push(`tool "${tool.name}": give it a description; clients and models read it.`);
      const schemaIssues = schemaProblems(tool, this.#validator);
      problems.push(...schemaIssues);
      if (schemaIssues.length === 0) problems.push(...machineProblems(tool, this.#validator));
      this.#tools.set(tool.name, tool);
    }
    if (problems.length > 0) {
      throw new ConfigurationError(`Baton cannot serve these tools:\n  - ${problems.join('\n  - ')}`);
    }
  }

  /** Tools in a deterministic order (spec, server/tools: SHOULD be deterministic). */
  list(): ToolDefinition[] {
    return [...this.#tools.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  get(name: string): ToolDefinition | undefined {
    return this.#tools.get(name);
  }

  /** Undefined when the arguments fit the tool's inputSchema, else a reason for the model. */
  checkArguments(tool: ToolDefinition, args: unknown): string | undefined {
    return this.#validator.check(tool.inputSchema, args);
  }
}
