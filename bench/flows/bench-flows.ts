/**
 * The three benchmark flows, written once: the questions, their schemas and messages, and the
 * result. Baton's bench machines, the SDK comparison server and the floor's constant replies are
 * all built from these definitions, so the three targets answer the same wire sequence with the
 * same logical work (no invoked work, no artificial delays).
 */
import type { FormSchema } from '../../server/engine/index.js';

export type FlowLabel = 'one-question' | 'three-question' | 'parallel';

export interface BenchQuestion {
  key: string;
  /** The message, computed from the arguments and the answers given so far. */
  message: (known: Record<string, unknown>) => string;
  schema: FormSchema;
}

export interface BenchFlow {
  label: FlowLabel;
  /** The tool name on every target. */
  tool: string;
  description: string;
  inputSchema: Record<string, unknown>;
  arguments: Record<string, string>;
  /** The rounds that ask; each round's questions are asked at once (in one `inputRequests`). */
  rounds: BenchQuestion[][];
  /** The tool result once every question is answered. */
  result: (known: Record<string, unknown>) => string | Record<string, unknown>;
}

const stringArgs = (...names: string[]) => ({
  type: 'object',
  properties: Object.fromEntries(names.map((name) => [name, { type: 'string', minLength: 1 }])),
  required: names,
  additionalProperties: false,
});

const enumField = (title: string, values: string[]) => ({ type: 'string', title, enum: values });

const confirmSchema = (title: string): FormSchema => ({
  type: 'object',
  properties: { confirm: { type: 'boolean', title } },
  required: ['confirm'],
});

export const oneQuestionFlow: BenchFlow = {
  label: 'one-question',
  tool: 'bench-one-question',
  description: 'Benchmark: asks one question, then answers.',
  inputSchema: stringArgs('greeting'),
  arguments: { greeting: 'Hello' },
  rounds: [
    [
      {
        key: 'name',
        message: () => 'What is your name?',
        schema: {
          type: 'object',
          properties: { name: { type: 'string', title: 'Name', minLength: 1 } },
          required: ['name'],
        },
      },
    ],
  ],
  result: (k) => `${String(k.greeting)}, ${String(k.name)}!`,
};

export const threeQuestionFlow: BenchFlow = {
  label: 'three-question',
  tool: 'bench-three-question',
  description: 'Benchmark: asks three questions one after the other (window, approver, confirm), then answers.',
  inputSchema: stringArgs('service', 'version'),
  arguments: { service: 'billing', version: '2.4.0' },
  rounds: [
    [
      {
        key: 'window',
        message: (k) => `When should ${String(k.service)} ${String(k.version)} go out?`,
        schema: {
          type: 'object',
          properties: { window: enumField('Release window', ['now', 'tonight', 'weekend']) },
          required: ['window'],
        },
      },
    ],
    [
      {
        key: 'approver',
        message: (k) => `Who approves ${String(k.service)} ${String(k.version)} (${String(k.window)})?`,
        schema: {
          type: 'object',
          properties: { approver: { type: 'string', title: 'Approver', minLength: 1, maxLength: 64 } },
          required: ['approver'],
        },
      },
    ],
    [
      {
        key: 'confirm',
        message: (k) =>
          `Deploy ${String(k.service)} ${String(k.version)} (${String(k.window)}, approved by ${String(k.approver)})?`,
        schema: confirmSchema('Deploy now'),
      },
    ],
  ],
  result: (k) => ({
    released: k.confirm === true,
    service: k.service,
    version: k.version,
    window: k.window,
    approver: k.approver,
  }),
};

export const parallelFlow: BenchFlow = {
  label: 'parallel',
  tool: 'bench-parallel',
  description: 'Benchmark: asks size and region at once (parallel regions), then a confirmation, then answers.',
  inputSchema: stringArgs('project'),
  arguments: { project: 'atlas' },
  rounds: [
    [
      {
        key: 'size',
        message: (k) => `Which size should the database for ${String(k.project)} be?`,
        schema: {
          type: 'object',
          properties: { size: enumField('Size', ['small', 'medium', 'large']) },
          required: ['size'],
        },
      },
      {
        key: 'region',
        message: () => 'Which region should it run in?',
        schema: {
          type: 'object',
          properties: { region: enumField('Region', ['eu-west', 'us-east', 'ap-south']) },
          required: ['region'],
        },
      },
    ],
    [
      {
        key: 'confirm',
        message: (k) => `Create a ${String(k.size)} database for ${String(k.project)} in ${String(k.region)}?`,
        schema: confirmSchema('Create it'),
      },
    ],
  ],
  result: (k) => ({ project: k.project, size: k.size, region: k.region, created: k.confirm === true }),
};

export const BENCH_FLOWS: readonly BenchFlow[] = [oneQuestionFlow, threeQuestionFlow, parallelFlow];

/** Requests one flow takes: one per asking round, plus the final one. */
export function requestsPerFlow(flow: BenchFlow): number {
  return flow.rounds.length + 1;
}

export function flowByLabel(label: string): BenchFlow {
  const flow = BENCH_FLOWS.find((f) => f.label === label);
  if (!flow) throw new Error(`Unknown flow "${label}": use one of ${BENCH_FLOWS.map((f) => f.label).join(', ')}.`);
  return flow;
}

/** One question of a flow, by round and position (throws on a typo rather than returning undefined). */
export function questionOf(flow: BenchFlow, round: number, index = 0): BenchQuestion {
  const question = flow.rounds[round]?.[index];
  if (!question) throw new Error(`${flow.label} has no question ${index} in round ${round}.`);
  return question;
}

/** A flow's result as a `CallToolResult`, shaped as Baton shapes a machine's output. */
export function callToolResult(output: string | Record<string, unknown>) {
  return typeof output === 'string'
    ? { content: [{ type: 'text' as const, text: output }] }
    : { content: [{ type: 'text' as const, text: JSON.stringify(output) }], structuredContent: output };
}
