/**
 * Every path a tool's answers can take, planned by running the machine's own transitions round
 * by round, as the server would (XState's pure `initialTransition`/`transition`, which apply
 * `assign` and run no actor):
 * - a round asks every question pending at once, in document order, and the plan answers each
 *   with every response it tries (planned-answers.ts), all combinations; the answers go in
 *   through the engine's own delivery (answer-delivery.ts: the asked schema checked, an answer
 *   to a question an earlier one moved past left out, a refused answer asked again);
 * - invoked work finishes, timers fire and children send events (planned-work.ts), with the
 *   outcomes the test gives, else a stand-in output; work that finishes by itself comes before
 *   the next question, as a round waits for it.
 *
 * Nothing is merged: each path carries its own snapshot, context included, so a guard on the
 * way reads exactly what the run's guard will read (telling states apart by value alone once
 * planned one answer to end where another ends: issue 40). The space stays finite because every
 * step counts against a bound: a question is asked, an actor invoked, a timer fired at most
 * `maxAsks` times on one path (the reference's serializeState trap: a counter in context makes
 * a graph keyed by context infinite; here the counts, not the context, bound it).
 */
import { initialTransition, transition, type AnyActor, type AnyActorLogic, type AnyEventObject } from 'xstate';
import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import type { ToolDefinition, UntypedResponses } from '../engine/index.js';
import { EngineError } from '../engine/engine-error.js';
import { JsonSchemaValidator } from '../engine/json-schema-validator.js';
import { deliverAnswers } from '../engine/round/answer-delivery.js';
import { pendingQuestions } from '../engine/round/pending-questions.js';
import { exampleObject } from '../simulation/index.js';
import { describeOutcome, type ActorOutcome } from './actor-outcomes.js';
import { plannedResponses } from './planned-answers.js';
import {
  afterTransition,
  NOTHING_PENDING,
  outputKind,
  pendingWork,
  type Pending,
  type WorkStep,
} from './planned-work.js';

/** One path: the answers given and the outcomes of invoked actors, in order, and where the plan says it ends. */
export interface AnswerPath {
  /** `window: accept {"window":"now"} → confirm: decline`, for a test title. */
  title: string;
  /** The answers by question key, one per time the key is asked (as in `runFlow`). */
  answers: Record<string, unknown[]>;
  /** The outcomes given to invoked actors, by actor name, one per time the actor is invoked. */
  outcomes: Record<string, ActorOutcome[]>;
  /** The final state's value, as the plan predicts it (JSON). */
  endsIn: string;
  /**
   * What the plan predicts the tool answers: a result, or a tool error (an output with
   * `isError: true`); undefined when the output depends on what an actor returns.
   */
  output?: 'result' | 'tool error';
  /** Actors the test gave no outcomes for, whose output the plan stood in for on this path. */
  guessed?: string[];
}

/**
 * One accept answer to try at a question: a whole response (`accept({…})`), the form's content,
 * or, for a form of one field, that field's value. Typed from the question where the tool comes
 * from `toolSetup`, so a misspelled field or a value outside an `enum` does not compile.
 */
export type AnswerVariant<TResponse> =
  TResponse | (TResponse extends { action: 'accept'; content: infer C } ? C | OnlyFieldOf<C> : never);
/** The value of a one-field form's field (`never` for a form of several fields). */
type OnlyFieldOf<C> = { [F in keyof C]-?: [Exclude<keyof C, F>] extends [never] ? C[F] : never }[keyof C];
/** The accept answers to try, by question key (`answers: { team: ['platform', 'design'] }`). */
export type AnswerVariants<TResponses = UntypedResponses> = {
  [K in keyof TResponses]?: ReadonlyArray<AnswerVariant<TResponses[K]>>;
};

/** What `planPaths` (and so `walkPaths` and `describePaths`) explores beyond the tool's example answers. */
export interface PlanOptions<TResponses = UntypedResponses> {
  /** Paths beyond this many are left out (a big machine can hold thousands). */
  limit?: number;
  /**
   * The accept answers to try at a question, by key, in place of the example ones: form content
   * (`{ date: '2026-12-05' }`), the one field's value of a one-field form (`'2026-12-05'`), or a
   * whole response (`accept({…})`). Decline and cancel are tried as well.
   */
  answers?: AnswerVariants<TResponses>;
  /** What an invoked actor may come to, by actor name: `done(output)` or `fail(error)`, one path each. */
  outcomes?: Record<string, ActorOutcome[]>;
  /** How many times one question may be asked (an actor invoked, a timer fired) on one path (default 2). */
  maxAsks?: number;
  /** Arguments of every run (default: the tool's `exampleArguments`, else made from its input schema). */
  args?: Record<string, unknown>;
  /** Stand-ins for invoked actors, by name (the plan reads only whether each finishes by itself). */
  actors?: Record<string, AnyActorLogic>;
}

type Step =
  | { kind: 'answer'; key: string; answer: unknown }
  | { kind: 'outcome'; actor: string; outcome: ActorOutcome }
  | { kind: 'guess'; actor: string };

interface PlanNode {
  snapshot: AnyMachineSnapshot;
  pending: Pending;
  /** How often each question was asked (`?key`) and each work source came (`!source`) on the way. */
  counts: Readonly<Record<string, number>>;
  steps: readonly Step[];
}

/**
 * One validator for every plan: making one (Ajv with its formats) costs a tenth of a second or
 * more, and it only caches compiled schemas, so sharing it changes no answer.
 */
let sharedValidator: JsonSchemaValidator | undefined;

/** Transitions tried at most, whatever the limit: a guard against a plan that would run for minutes. */
const MAX_TRANSITIONS = 50_000;

/** The engine's delivery drives an actor; this one takes each event with a pure transition. */
function pureActor(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, pending: Pending) {
  const state = { snapshot, pending };
  const actor = {
    getSnapshot: () => state.snapshot,
    send: (event: AnyEventObject) => {
      const [next, actions] = transition(machine, state.snapshot, event);
      state.snapshot = next;
      state.pending = afterTransition(state.pending, actions);
    },
  };
  return { actor: actor as unknown as AnyActor, state };
}

function combinations<T>(lists: T[][]): T[][] {
  return lists.reduce<T[][]>((all, list) => all.flatMap((prefix) => list.map((item) => [...prefix, item])), [[]]);
}

function describeStep(step: Step): string {
  if (step.kind === 'outcome') return `${step.actor}: ${describeOutcome(step.outcome)}`;
  if (step.kind === 'guess') return step.actor;
  const answer = step.answer as { action?: string; content?: unknown };
  if (!answer.action) return `${step.key}: result`;
  return answer.content === undefined
    ? `${step.key}: ${answer.action}`
    : `${step.key}: ${answer.action} ${JSON.stringify(answer.content)}`;
}

const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

function toPath(node: PlanNode): AnswerPath {
  const answers: Record<string, unknown[]> = {};
  const outcomes: Record<string, ActorOutcome[]> = {};
  const guessed = new Set<string>();
  for (const step of node.steps) {
    if (step.kind === 'answer') (answers[step.key] ??= []).push(step.answer);
    else if (step.kind === 'outcome') (outcomes[step.actor] ??= []).push(step.outcome);
    else guessed.add(step.actor);
  }
  const told = node.steps.filter((step) => step.kind !== 'guess');
  const output = outputKind(node.snapshot.output);
  return {
    title: told.length > 0 ? told.map(describeStep).join(' → ') : '(asks nothing)',
    answers,
    outcomes,
    endsIn: JSON.stringify(node.snapshot.value),
    ...(output ? { output } : {}),
    ...(guessed.size > 0 ? { guessed: [...guessed] } : {}),
  };
}

/** Every path from the start to a final state, as the answers and outcomes that take it. */
export function planPaths<TResponses = UntypedResponses>(
  typed: ToolDefinition<AnyStateMachine, TResponses>,
  options: PlanOptions<TResponses> = {},
): AnswerPath[] {
  const tool = typed as ToolDefinition;
  const variants = options.answers as Record<string, readonly unknown[]> | undefined;
  const machine = tool.machine as AnyStateMachine;
  const maxAsks = options.maxAsks ?? 2;
  const limit = options.limit ?? 200;
  const validator = (sharedValidator ??= new JsonSchemaValidator());
  const implementations = machine.implementations.actors as Record<string, AnyActorLogic | undefined>;
  const logicOf = (actor: string) => options.actors?.[actor] ?? tool.exampleActors?.[actor] ?? implementations[actor];
  const planned = new Map<string, AnswerPath>();
  let budget = MAX_TRANSITIONS;

  const record = (node: PlanNode) => {
    const path = toPath(node);
    // The same answers and outcomes in another order (work finishing in another order) are one path.
    const signature = JSON.stringify([
      Object.entries(path.answers).sort(byKey),
      Object.entries(path.outcomes).sort(byKey),
    ]);
    if (!planned.has(signature)) planned.set(signature, path);
  };

  const answerRound = (node: PlanNode) => {
    const asked = pendingQuestions(node.snapshot).map(({ question }) => question);
    if (asked.length === 0 || asked.some((q) => (node.counts[`?${q.key}`] ?? 0) >= maxAsks)) return;
    const tries = asked.map((question) => plannedResponses(tool, question, node.snapshot.context, variants));
    const counts = { ...node.counts };
    for (const question of asked) counts[`?${question.key}`] = (counts[`?${question.key}`] ?? 0) + 1;
    for (const responses of combinations(tries)) {
      if (--budget < 0 || planned.size >= limit) return;
      const { actor, state } = pureActor(machine, node.snapshot, node.pending);
      const given = Object.fromEntries(asked.map((question, index) => [question.key, responses[index]]));
      try {
        deliverAnswers(actor, Object.keys(given), given, validator);
      } catch (error) {
        if (error instanceof EngineError && error.reason === 'invalid_responses') {
          throw new Error(`planPaths(${tool.name}): ${error.message}: the answers given for it are not responses`);
        }
        continue; // a guard or an action threw: the run fails there too, no path to plan
      }
      const steps = asked.map((question, index): Step => ({
        kind: 'answer',
        key: question.key,
        answer: responses[index],
      }));
      visit({ ...state, counts, steps: [...node.steps, ...steps] });
    }
  };

  const workStep = (node: PlanNode, work: WorkStep) => {
    const counted = `!${work.source}`;
    if ((node.counts[counted] ?? 0) >= maxAsks || --budget < 0 || planned.size >= limit) return;
    let next: AnyMachineSnapshot;
    let actions: Parameters<typeof afterTransition>[1];
    try {
      [next, actions] = transition(machine, node.snapshot, work.event);
    } catch {
      return;
    }
    // An event a child sends that changes nothing may come any number of times: it is no step.
    if (work.kind === 'sent' && next === node.snapshot) return;
    const step: Step[] = work.outcome
      ? [{ kind: 'outcome', actor: work.actor!, outcome: work.outcome }]
      : work.guessed
        ? [{ kind: 'guess', actor: work.actor! }]
        : [];
    visit({
      snapshot: next,
      pending: afterTransition(node.pending, actions, work),
      counts: { ...node.counts, [counted]: (node.counts[counted] ?? 0) + 1 },
      steps: [...node.steps, ...step],
    });
  };

  const visit = (node: PlanNode) => {
    if (planned.size >= limit || budget < 0) return;
    if (node.snapshot.status === 'done') return record(node);
    if (node.snapshot.status !== 'active') return;
    const work = pendingWork(node.snapshot, node.pending, options.outcomes, logicOf);
    if (!work.finishing) answerRound(node);
    for (const step of work.steps) workStep(node, step);
  };

  const input = options.args ?? tool.exampleArguments ?? exampleObject(tool.inputSchema);
  const [initial, actions] = initialTransition(machine, input);
  visit({ snapshot: initial, pending: afterTransition(NOTHING_PENDING, actions), counts: {}, steps: [] });
  return [...planned.values()];
}
