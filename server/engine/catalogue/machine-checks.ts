/**
 * Start-up checks shared by every machine-backed primitive (tools, prompts, resources): input
 * states must ask a well-formed question, handle its answers, run no work while waiting, and use
 * unique keys; every action, guard, actor and delay named must be implemented; the initial
 * context must survive superjson.
 */
import { getInitialSnapshot, type AnyStateMachine, type AnyStateNode } from 'xstate';
import { DEFAULT_TIME_BUDGET_MS } from '../flow/flow-engine.js';
import { missingImplementations } from './implementation-checks.js';
import { answerHandlerProblems } from './answer-handler-checks.js';
import { HOW_TO_ASK } from './how-to-ask.js';
import { parallelDoneProblems } from './parallel-done-checks.js';
import { eachStateNode } from '../state-nodes.js';
import { answerEvent, INPUT_META, INPUT_TAG, type Question } from '../authoring/input-states.js';
import { roundCrossingProblems, TASK_FIX } from '../round/round-crossing-checks.js';
import { secretFields, secretFieldsMessage } from '../round/secret-fields.js';
import { formSchemaProblem } from '../round/form-schema-check.js';
import { findUnserializable } from '../round/serializable-context.js';

/** Keys become part of event names (`answer.<key>.accept`), so they avoid dots. */
const INPUT_KEY = /^[A-Za-z0-9_-]{1,64}$/;
/** The engine can only turn these into inputRequests; anything else would fail at request time. */
const QUESTION_KINDS = new Set<unknown>(['form', 'url', 'sampling', 'roots']);

export interface MachineCheckOptions {
  /**
   * The machine runs only as a durable task (`task: 'required'`), where `after` timers are
   * durable: `after` on or around input states and delays longer than a round become legal.
   */
  taskMode?: boolean | undefined;
  /** The round's time budget in milliseconds (default 30 s). */
  timeBudgetMs?: number | undefined;
}

function questionProblems(
  label: string,
  node: AnyStateNode,
  keys: Map<string, string>,
  options: MachineCheckOptions,
): string[] {
  const where = `${label}, state "${node.id}"`;
  const question = (node.meta as Record<string, unknown> | undefined)?.[INPUT_META] as Question | undefined;
  const tagged = node.tags.includes(INPUT_TAG);
  if (!question && !tagged) return [];
  if (!question) return [`${where}: tagged "${INPUT_TAG}" but asks no question. ${HOW_TO_ASK}`];
  if (!tagged) return [`${where}: has a question but no "${INPUT_TAG}" tag. ${HOW_TO_ASK}`];
  if (!QUESTION_KINDS.has(question.kind)) {
    return [`${where}: asks a question of unknown kind "${question.kind}". ${HOW_TO_ASK}`];
  }
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
    else if (typeof schema === 'object' && formSchemaProblem(schema)) {
      problems.push(`${where}: ${formSchemaProblem(schema)}`);
    } else if (typeof schema === 'object') {
      const secrets = secretFields(schema, question.notSecret);
      if (secrets.length > 0) problems.push(secretFieldsMessage(where, secrets));
    }
  }
  if (question.kind === 'sampling' && !question.request)
    problems.push(`${where}: a sampling question needs a request.`);
  if (node.invoke.length > 0) {
    problems.push(
      `${where}: an input state cannot invoke actors (work must finish before a round ends). Invoke in the state before or after it.`,
    );
  }
  if (node.after.length > 0 && !options.taskMode) {
    problems.push(
      `${where}: an input state cannot have "after" timers; they do not survive a round. Store a deadline in context and check it with a guard, ${TASK_FIX}.`,
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

/**
 * Everything wrong with a machine that Baton would run, each problem naming `label` (e.g.
 * `tool "release"`), the state and the fix. `exampleInput`, when given, also checks that the
 * machine starts and that its initial context can cross a round.
 */
export function machineProblems(
  label: string,
  machine: AnyStateMachine | undefined,
  exampleInput?: unknown,
  options: MachineCheckOptions = {},
): string[] {
  if (!machine || typeof machine.transition !== 'function') {
    return [`${label}: machine is not an XState v5 machine (use createMachine or setup().createMachine).`];
  }
  const problems: string[] = [];
  const finalOutputs = Object.values(machine.root.states).some((n) => n.type === 'final' && n.output !== undefined);
  if (finalOutputs && machine.root.output === undefined) {
    problems.push(
      `${label}: final states define output but the machine does not pass it on. Add \`output: ({ event }) => event.output\` at the machine's root.`,
    );
  }
  const keys = new Map<string, string>();
  eachStateNode(machine.root, (node) => problems.push(...questionProblems(label, node, keys, options)));
  problems.push(
    ...roundCrossingProblems(label, machine, {
      timeBudgetMs: options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS,
      taskMode: options.taskMode,
    }),
  );
  problems.push(...missingImplementations(label, machine));
  problems.push(...answerHandlerProblems(label, machine));
  problems.push(...parallelDoneProblems(label, machine));
  try {
    const initial = getInitialSnapshot(machine, exampleInput ?? {});
    // XState reports a throwing context factory as an error snapshot, not as an exception.
    if (initial.status === 'error') throw initial.error;
    // What crosses a round is the persisted snapshot, where actor refs in context are references
    // XState revives, not the live Actor objects.
    const persist = machine.getPersistedSnapshot as unknown as (
      snapshot: unknown,
      options: object,
    ) => { context: unknown };
    const problem = findUnserializable(persist.call(machine, initial, { __unsafeAllowInlineActors: true }).context);
    if (problem) {
      problems.push(
        `${label}: ${problem}; context must survive superjson across rounds. Keep functions and class instances out of context.`,
      );
    }
  } catch (error) {
    if (exampleInput !== undefined) {
      problems.push(`${label}: the machine fails to start with its example input: ${(error as Error).message}`);
    }
  }
  return problems;
}
