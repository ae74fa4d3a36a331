/**
 * Every path a tool's answers can take, derived from the machine graph with `xstate/graph`: at
 * each input state the user may accept (with the test's answer variants for that question, else
 * the tool's example answers and each boolean field flipped, so both sides of a yes/no guard are
 * walked), decline or cancel; invoked work finishes (with each outcome the test gives for that
 * actor: done with a value, or an error) and timers fire. The graph runs XState's pure transition
 * function, so invoked actors do not run: without given outcomes their `done` events carry a
 * stand-in output that answers any property (the real output decides on the replay).
 *
 * Snapshots are told apart by state value and by how often each question was answered on the
 * way: context (a counter, a list) would make the space infinite (reference: xstate/graph
 * "serializeState" trap), while the answer counts let a path come back to a question it asked
 * before (a refused check that asks again), up to `maxAsks` times.
 */
import {
  getStateNodes,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
} from 'xstate';
import { getSimplePaths } from 'xstate/graph';
import { INPUT_META, type Question, type ToolDefinition } from '../engine/index.js';
import { EXAMPLE_ROOTS_RESULT, EXAMPLE_SAMPLING_RESULT, exampleObject } from '../simulation/index.js';
import { acceptVariants } from './answer-variants.js';
import { describeOutcome, type ActorOutcome } from './actor-outcomes.js';

/** One path: the answers given and the outcomes of invoked actors, in order, and where the graph says it ends. */
export interface AnswerPath {
  /** `window: accept {"window":"now"} → confirm: decline`, for a test title. */
  title: string;
  /** The answers by question key, one per time the key is asked (as in `runFlow`). */
  answers: Record<string, unknown[]>;
  /** The outcomes given to invoked actors, by actor name, one per time the actor is invoked. */
  outcomes: Record<string, ActorOutcome[]>;
  /** The final state's value, as the graph predicts it (JSON). */
  endsIn: string;
  /**
   * What the graph predicts the tool answers: a result, or a tool error (an output with
   * `isError: true`); undefined when the output depends on what an actor returns.
   */
  output?: 'result' | 'tool error';
}

export interface PlanOptions {
  /** Paths beyond this many are left out (the graph of a big machine can hold thousands). */
  limit?: number;
  /**
   * The accept answers to try at a question, by key, in place of the example ones: form content
   * (`{ date: '2026-12-05' }`), the one field's value of a one-field form (`'2026-12-05'`), or a
   * whole response (`accept({…})`). Decline and cancel are tried as well.
   */
  answers?: Record<string, unknown[]>;
  /** What an invoked actor may come to, by actor name: `done(output)` or `fail(error)`, one path each. */
  outcomes?: Record<string, ActorOutcome[]>;
  /** How many times one question may be asked on one path (default 2: once, and once again). */
  maxAsks?: number;
}

type Step =
  { kind: 'answer'; key: string; answer: unknown } | { kind: 'outcome'; actor: string; outcome: ActorOutcome };

/** A value that answers every property read, so pure transitions on `event.output.x` go on. */
const anyOutput: unknown = new Proxy(function () {}, {
  get: (_target, property) => (property === Symbol.toPrimitive ? () => 1 : anyOutput),
  apply: () => anyOutput,
});

/** What the planned tool answers, from the final snapshot's output (toToolResult's rule for isError). */
function outputKind(output: unknown): AnswerPath['output'] {
  if (output === anyOutput) return undefined;
  if (typeof output !== 'object' || output === null) return 'result';
  const { content, isError } = output as { content?: unknown; isError?: unknown };
  if (content === anyOutput || isError === anyOutput) return undefined;
  return Array.isArray(content) && isError === true ? 'tool error' : 'result';
}

/**
 * The states a snapshot is in, by XState's public `getStateNodes` (which names an ancestor once per
 * child: once here), in an order fixed by the state value alone.
 */
function activeNodes(snapshot: AnyMachineSnapshot): AnyStateNode[] {
  return [...new Set(getStateNodes(snapshot.machine.root, snapshot.value))].filter((node) => node.type !== 'parallel');
}

function computed<T>(value: unknown, context: unknown): T | undefined {
  try {
    return (typeof value === 'function' ? value({ context }) : value) as T;
  } catch {
    return undefined;
  }
}

/** The accept contents to try by default: the tool's example answers (each listed one), else one from the schema; then booleans flipped. */
function defaultContents(tool: ToolDefinition, schema: Record<string, unknown> | undefined, key: string) {
  const given = tool.exampleAnswers?.[key];
  const listed = (Array.isArray(given) ? given : given === undefined ? [] : [given])
    .map((answer) => (answer as { action?: string; content?: Record<string, unknown> }) ?? {})
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

/** The step an event stands for, so the replay can give the same answer or outcome. */
const STEP = Symbol('step');
type PlannedEvent = AnyEventObject & { [STEP]?: Step };

function unique<T>(values: T[]): T[] {
  const seen = new Set<string>();
  return values.filter((value) => !seen.has(JSON.stringify(value)) && seen.add(JSON.stringify(value)));
}

function answerEvents(
  tool: ToolDefinition,
  node: AnyStateNode,
  context: unknown,
  options: PlanOptions,
): PlannedEvent[] {
  const question = (node.meta as Record<string, unknown> | undefined)?.[INPUT_META] as Question | undefined;
  if (!question) return [];
  const { key } = question;
  const event = (answer: Record<string, unknown>, fields: Record<string, unknown> = {}): PlannedEvent => ({
    type: `answer.${key}.${String(answer.action ?? 'result')}`,
    ...fields,
    [STEP]: { kind: 'answer', key, answer },
  });
  const refusals = [event({ action: 'decline' }), event({ action: 'cancel' })];
  switch (question.kind) {
    case 'sampling':
      return [event(EXAMPLE_SAMPLING_RESULT, { result: EXAMPLE_SAMPLING_RESULT })];
    case 'roots':
      return [event(EXAMPLE_ROOTS_RESULT, { roots: EXAMPLE_ROOTS_RESULT.roots })];
    case 'url':
      return [event({ action: 'accept' }), ...refusals];
    case 'form': {
      const schema = computed<Record<string, unknown>>(question.schema, context);
      const variants = options.answers?.[key];
      const answers = variants ? acceptVariants(key, variants, schema) : defaultContents(tool, schema, key);
      const given = unique([...answers, { action: 'decline' }, { action: 'cancel' }]);
      return given.map((answer) => {
        const { action, content } = answer as { action: string; content?: unknown };
        return event(answer as Record<string, unknown>, action === 'accept' ? { content } : {});
      });
    }
  }
}

/** An event whose every field reads as the stand-in output. */
function eventFromWork(type: string): AnyEventObject {
  return new Proxy(
    { type },
    {
      get: (target, property) =>
        property in target ? target[property as 'type'] : typeof property === 'symbol' ? undefined : anyOutput,
    },
  );
}

/**
 * What happens without the user: invoked work finishing (with each given outcome, else with the
 * stand-in output), timers firing, and the events invoked work sends its parent (`build.done`
 * from a callback actor) in a state that invokes it.
 */
function workEvents(node: AnyStateNode, options: PlanOptions): AnyEventObject[] {
  const finished = node.invoke.flatMap((invoke): AnyEventObject[] => {
    const actor = String(invoke.src);
    const outcomes = options.outcomes?.[actor];
    if (!outcomes) return [{ type: `xstate.done.actor.${invoke.id}`, output: anyOutput }];
    return outcomes.map((outcome): PlannedEvent => ({
      ...('error' in outcome
        ? { type: `xstate.error.actor.${invoke.id}`, error: outcome.error }
        : { type: `xstate.done.actor.${invoke.id}`, output: outcome.output }),
      [STEP]: { kind: 'outcome', actor, outcome },
    }));
  });
  const timers = node.after.map((transition) => ({ type: transition.eventType }));
  const sent =
    node.invoke.length === 0
      ? []
      : Object.keys(node.on)
          .filter((type) => !type.startsWith('xstate.') && !type.startsWith('answer.') && !type.includes('*'))
          .map(eventFromWork);
  return [...finished, ...timers, ...sent];
}

function describeStep(step: Step): string {
  if (step.kind === 'outcome') return `${step.actor}: ${describeOutcome(step.outcome)}`;
  const answer = step.answer as { action?: string; content?: unknown };
  if (!answer.action) return `${step.key}: result`;
  return answer.content === undefined
    ? `${step.key}: ${answer.action}`
    : `${step.key}: ${answer.action} ${JSON.stringify(answer.content)}`;
}

const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/** Every simple path from the start to a final state, as the answers and outcomes that take it. */
export function planPaths(tool: ToolDefinition, options: PlanOptions = {}): AnswerPath[] {
  const machine = tool.machine as AnyStateMachine;
  const maxAsks = options.maxAsks ?? 2;
  // How often each question was answered on the way to a snapshot (snapshots are distinct objects).
  const answered = new WeakMap<object, Record<string, number>>();
  const countsOf = (snapshot: object, event?: PlannedEvent, previous?: object): Record<string, number> => {
    let counts = answered.get(snapshot);
    if (!counts) {
      counts = { ...(previous ? answered.get(previous) : undefined) };
      const step = event?.[STEP];
      if (step?.kind === 'answer') counts[step.key] = (counts[step.key] ?? 0) + 1;
      answered.set(snapshot, counts);
    }
    return counts;
  };
  const paths = getSimplePaths(machine, {
    input: tool.exampleArguments ?? exampleObject(tool.inputSchema),
    events: (snapshot) => {
      const counts = countsOf(snapshot);
      return activeNodes(snapshot).flatMap((node) => [
        ...answerEvents(tool, node, snapshot.context, options).filter(
          (event) => (counts[(event[STEP] as { key: string }).key] ?? 0) < maxAsks,
        ),
        ...workEvents(node, options),
      ]);
    },
    serializeState: (snapshot, event, previous) =>
      `${JSON.stringify(snapshot.value)} ${JSON.stringify(Object.entries(countsOf(snapshot, event as PlannedEvent, previous)).sort(byKey))}`,
    serializeEvent: (event) => {
      const step = (event as PlannedEvent)[STEP];
      const detail = step?.kind === 'answer' ? step.answer : step?.kind === 'outcome' ? step.outcome : null;
      return `${event.type} ${JSON.stringify(detail, (_key, value: unknown) => (value instanceof Error ? `Error: ${value.message}` : value))}`;
    },
    toState: (snapshot) => snapshot.status === 'done',
  });
  const planned = new Map<string, AnswerPath>();
  for (const path of paths) {
    if (path.state.status !== 'done') continue;
    const steps = path.steps.map((step) => (step.event as PlannedEvent)[STEP]).filter((s): s is Step => !!s);
    const answers: Record<string, unknown[]> = {};
    const outcomes: Record<string, ActorOutcome[]> = {};
    for (const step of steps) {
      if (step.kind === 'answer') (answers[step.key] ??= []).push(step.answer);
      else (outcomes[step.actor] ??= []).push(step.outcome);
    }
    const title = steps.length > 0 ? steps.map(describeStep).join(' → ') : '(asks nothing)';
    // Regions answered in another order are the same path: the client answers them in one round.
    const signature = JSON.stringify([Object.entries(answers).sort(byKey), Object.entries(outcomes).sort(byKey)]);
    if (planned.has(signature)) continue;
    const output = outputKind(path.state.output);
    planned.set(signature, {
      title,
      answers,
      outcomes,
      endsIn: JSON.stringify(path.state.value),
      ...(output ? { output } : {}),
    });
  }
  return [...planned.values()].slice(0, options.limit ?? 200);
}
