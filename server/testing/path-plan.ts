/**
 * Every path a tool's answers can take, derived from the machine graph with `xstate/graph`: at
 * each input state the user may accept (with the tool's example answers, and each boolean field
 * flipped, so both sides of a yes/no guard are walked), decline or cancel; invoked work finishes
 * and timers fire. The graph runs XState's pure transition function, so invoked actors do not
 * run: their `done` events carry a stand-in output that answers any property (the real output
 * decides on the replay). Snapshots are told apart by state value only: context (a counter, a
 * list) would make the space infinite (reference: xstate/graph "serializeState" trap).
 */
import type { AnyEventObject, AnyStateMachine, AnyStateNode } from 'xstate';
import { getSimplePaths } from 'xstate/graph';
import { INPUT_META, type Question, type ToolDefinition } from '../engine/index.js';
import { EXAMPLE_ROOTS_RESULT, EXAMPLE_SAMPLING_RESULT, exampleObject } from '../simulation/index.js';

/** One path: the answers given, in order, and where the graph says it ends. */
export interface AnswerPath {
  /** `window: accept {"window":"now"} → confirm: decline`, for a test title. */
  title: string;
  /** The answers by question key, one per time the key is asked (as in `runFlow`). */
  answers: Record<string, unknown[]>;
  /** The final state's value, as the graph predicts it. */
  endsIn: string;
}

export interface PlanOptions {
  /** Paths beyond this many are left out (the graph of a big machine can hold thousands). */
  limit?: number;
}

interface Step {
  key: string;
  answer: unknown;
}

/** A value that answers every property read, so pure transitions on `event.output.x` go on. */
const anyOutput: unknown = new Proxy(function () {}, {
  get: (_target, property) => (property === Symbol.toPrimitive ? () => 1 : anyOutput),
  apply: () => anyOutput,
});

function activeNodes(snapshot: unknown): AnyStateNode[] {
  // `_nodes` is XState's list of active state nodes; the public API has only `matches`.
  return ((snapshot as { _nodes?: AnyStateNode[] })._nodes ?? []).filter((node) => node.type !== 'parallel');
}

function computed<T>(value: unknown, context: unknown): T | undefined {
  try {
    return (typeof value === 'function' ? value({ context }) : value) as T;
  } catch {
    return undefined;
  }
}

/** The accept contents to try: the tool's example answers (each listed one), else one from the schema; then booleans flipped. */
function acceptContents(tool: ToolDefinition, question: Question, context: unknown): Record<string, unknown>[] {
  const given = tool.exampleAnswers?.[question.key];
  const listed = (Array.isArray(given) ? given : given === undefined ? [] : [given])
    .map((answer) => (answer as { action?: string; content?: Record<string, unknown> }) ?? {})
    .filter((answer) => answer.action === 'accept' && answer.content)
    .map((answer) => answer.content!);
  const schema = question.kind === 'form' ? computed<Record<string, unknown>>(question.schema, context) : undefined;
  const contents = listed.length > 0 ? listed : [exampleObject(schema)];
  const flipped = contents.flatMap((content) =>
    Object.entries(content)
      .filter(([, value]) => typeof value === 'boolean')
      .map(([field, value]) => ({ ...content, [field]: !value })),
  );
  const seen = new Set<string>();
  return [...contents, ...flipped].filter(
    (content) => !seen.has(JSON.stringify(content)) && seen.add(JSON.stringify(content)),
  );
}

/** What the client would send for each event, so the replay can give the same answer. */
const ANSWER = Symbol('answer');
type PlannedEvent = AnyEventObject & { [ANSWER]?: Step };

function answerEvents(tool: ToolDefinition, node: AnyStateNode, context: unknown): PlannedEvent[] {
  const question = (node.meta as Record<string, unknown> | undefined)?.[INPUT_META] as Question | undefined;
  if (!question) return [];
  const { key } = question;
  const event = (outcome: string, answer: unknown, fields: Record<string, unknown> = {}): PlannedEvent => ({
    type: `answer.${key}.${outcome}`,
    ...fields,
    [ANSWER]: { key, answer },
  });
  switch (question.kind) {
    case 'sampling':
      return [event('result', EXAMPLE_SAMPLING_RESULT, { result: EXAMPLE_SAMPLING_RESULT })];
    case 'roots':
      return [event('result', EXAMPLE_ROOTS_RESULT, { roots: EXAMPLE_ROOTS_RESULT.roots })];
    case 'url':
      return [
        event('accept', { action: 'accept' }),
        event('decline', { action: 'decline' }),
        event('cancel', { action: 'cancel' }),
      ];
    case 'form':
      return [
        ...acceptContents(tool, question, context).map((content) =>
          event('accept', { action: 'accept', content }, { content }),
        ),
        event('decline', { action: 'decline' }),
        event('cancel', { action: 'cancel' }),
      ];
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
 * What happens without the user: invoked work finishing, timers firing, and the events invoked
 * work sends its parent (`build.done` from a callback actor) in a state that invokes it.
 */
function workEvents(node: AnyStateNode): AnyEventObject[] {
  const done = node.invoke.map((invoke) => ({ type: `xstate.done.actor.${invoke.id}`, output: anyOutput }));
  const timers = node.after.map((transition) => ({ type: transition.eventType }));
  const sent =
    node.invoke.length === 0
      ? []
      : Object.keys(node.on)
          .filter((type) => !type.startsWith('xstate.') && !type.startsWith('answer.') && !type.includes('*'))
          .map(eventFromWork);
  return [...done, ...timers, ...sent];
}

function describeStep(step: Step): string {
  const answer = step.answer as { action?: string; content?: unknown };
  if (!answer.action) return `${step.key}: result`;
  return answer.content === undefined
    ? `${step.key}: ${answer.action}`
    : `${step.key}: ${answer.action} ${JSON.stringify(answer.content)}`;
}

/** Every simple path from the start to a final state, as the answers that take it. */
export function planPaths(tool: ToolDefinition, options: PlanOptions = {}): AnswerPath[] {
  const machine = tool.machine as AnyStateMachine;
  const paths = getSimplePaths(machine, {
    input: tool.exampleArguments ?? exampleObject(tool.inputSchema),
    events: (snapshot) =>
      activeNodes(snapshot).flatMap((node) => [...answerEvents(tool, node, snapshot.context), ...workEvents(node)]),
    serializeState: (snapshot) => JSON.stringify(snapshot.value),
    serializeEvent: (event) => `${event.type} ${JSON.stringify((event as PlannedEvent)[ANSWER]?.answer ?? null)}`,
    toState: (snapshot) => snapshot.status === 'done',
  });
  const planned = new Map<string, AnswerPath>();
  for (const path of paths) {
    if (path.state.status !== 'done') continue;
    const steps = path.steps.map((step) => (step.event as PlannedEvent)[ANSWER]).filter((s): s is Step => !!s);
    const answers: Record<string, unknown[]> = {};
    for (const step of steps) (answers[step.key] ??= []).push(step.answer);
    const title = steps.length > 0 ? steps.map(describeStep).join(' → ') : '(asks nothing)';
    // Regions answered in another order are the same path: the client answers them in one round.
    const signature = JSON.stringify(Object.entries(answers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    if (!planned.has(signature)) planned.set(signature, { title, answers, endsIn: JSON.stringify(path.state.value) });
  }
  return [...planned.values()].slice(0, options.limit ?? 200);
}
