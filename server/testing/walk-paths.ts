/**
 * `walkPaths`: every path the plan holds (path-plan.ts), replayed through real rounds
 * with `runFlow`, and checked against the plan. A path passes when its run
 * - ends within the round limit (a flow still asking after it loops, e.g. a decline that asks
 *   again forever), without a JSON-RPC error;
 * - ends in the final state the plan says, with the kind of output it says (a result, or a tool
 *   error the plan predicts; a tool error the plan cannot foresee fails);
 * - asks each question as often as the plan answers it, and invokes each actor the test gave
 *   outcomes for as often as the plan gives them: a planned answer the run never used means the
 *   run went another way, whatever state it ended in;
 * - starts no effect (an invoked actor outside `safeActors`) right after the user declined or
 *   cancelled, unless `effectsAfterDecline` allows it for that question.
 * It also reports the final states no walked path reached.
 */
import type { AnyActorLogic, AnyStateMachine } from 'xstate';
import type { ToolDefinition, UntypedResponses } from '../engine/index.js';
import type { AskedQuestion } from '../simulation/index.js';
import { plannedStandIns } from './actor-outcomes.js';
import { countEffects } from './effect-counter.js';
import { withFinalStateProbe } from './final-state-probe.js';
import { planPaths, type AnswerPath, type PlanOptions } from './path-plan.js';
import { answerPolicy, runFlow, type FlowRun, type RunFlowOptions } from './run-flow.js';

/** `planPaths`' options and `runFlow`'s, plus the effects a refusal may still start. */
export interface WalkOptions<TResponses = UntypedResponses> extends PlanOptions<TResponses>, RunFlowOptions {
  /**
   * Effects that may still start after a question is declined or cancelled, by question key
   * (`{ details: ['saveFeedback'] }`: declining the details still stores the rating).
   */
  effectsAfterDecline?: Record<string, string[]>;
}

/** One planned path, replayed: the run, where it ended, the effects it started, and why it fails if it does. */
export interface WalkedPath {
  path: AnswerPath;
  run: FlowRun;
  /** The top-level final state the run ended in, when it ended in one. */
  endedIn?: string;
  /** Each effect the run started, in order, with the answers it followed when they refused. */
  effects: Array<{ actor: string; afterRefusing?: string[] }>;
  /** Why the path fails, or undefined when it ends where the plan says. */
  problem?: string;
}

/** What `walkPaths` returns: every path replayed, and the final states none reached. */
export interface PathsWalk {
  paths: WalkedPath[];
  /** Top-level final states no walked path ended in. */
  unreached: string[];
}

/** Why a run did not end well, or undefined. */
export function pathProblem(run: FlowRun, planned?: AnswerPath['output']): string | undefined {
  if (run.outcome === 'unfinished') {
    const refused = run.refused
      ? `; the last answer the server refused was to "${run.refused.key}": ${run.refused.reason}`
      : '';
    return `still asking after ${run.rounds.length} rounds (asked ${run.asked.join(', ')}): a loop?${refused}`;
  }
  if (run.error) return `ended with error ${run.error.code}: ${run.error.message}`;
  if (run.result?.isError === true && planned !== 'tool error') {
    const text = (run.result.content as Array<{ text?: string }> | undefined)?.map((c) => c.text).join(' ');
    return `ended with a tool error: ${text ?? ''}`;
  }
  return undefined;
}

const withKind = (state: string, kind: string | undefined) =>
  `"${state}"${kind ? ` with ${kind === 'result' ? 'a result' : 'a tool error'}` : ''}`;

/** Why the plan could not know: the actors whose output it stood in for, and how to tell it. */
function guessHint(path: AnswerPath): string {
  const guessed = path.guessed ?? [];
  if (guessed.length === 0) return '';
  const names = guessed.map((actor) => `"${actor}"`).join(', ');
  return ` (the plan guessed what ${names} returned: give outcomes: { ${guessed[0]}: [done(…), fail(…)] } to plan each branch)`;
}

/** Where the plan says the path ends against where the run ended, or undefined when they agree. */
function endingProblem(path: AnswerPath, endedIn: string | undefined, run: FlowRun): string | undefined {
  const planned = JSON.parse(path.endsIn) as unknown;
  if (run.outcome !== 'complete' || !run.result) return undefined;
  const kind = run.result.isError === true ? 'tool error' : 'result';
  const stateDiffers = typeof planned === 'string' && endedIn !== undefined && endedIn !== planned;
  const kindDiffers = path.output !== undefined && path.output !== kind;
  if (!stateDiffers && !kindDiffers) return undefined;
  return `the plan ends in ${withKind(String(typeof planned === 'string' ? planned : path.endsIn), path.output)}, but the run ended in ${withKind(endedIn ?? '(unknown)', kind)}${guessHint(path)}`;
}

const times = (n: number) => (n === 0 ? 'never' : n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);

/**
 * A question the plan answers more or less often than the run asked it: the run went another way
 * than planned (and a planned answer it never used proves nothing), or undefined when they agree.
 */
function askedProblem(path: AnswerPath, run: FlowRun): string | undefined {
  const asked: Record<string, number> = {};
  for (const key of run.asked) asked[key] = (asked[key] ?? 0) + 1;
  const keys = [...new Set([...Object.keys(path.answers), ...Object.keys(asked)])];
  for (const key of keys) {
    const planned = path.answers[key]?.length ?? 0;
    const got = asked[key] ?? 0;
    if (planned === got) continue;
    const ran = got === 0 ? 'the run never asked it' : `the run asked it ${times(got)}`;
    return `the plan answers "${key}" ${times(planned)}, but ${ran}${guessHint(path)}`;
  }
  return undefined;
}

const REFUSALS = new Set(['decline', 'cancel']);

/** Replays one planned path through real rounds. */
export async function walkPath<TResponses = UntypedResponses>(
  typed: ToolDefinition<AnyStateMachine, TResponses>,
  path: AnswerPath,
  options: WalkOptions<TResponses> = {},
): Promise<WalkedPath> {
  const tool = typed as ToolDefinition;
  const effects: WalkedPath['effects'] = [];
  const overruns: string[] = [];
  // The answers sent together last (one round, or one tasks/update): an effect after them follows them.
  let lastBatch = { where: '', refused: [] as string[] };
  const { actors: standIns, unused } = plannedStandIns(path.outcomes, (actor, planned) =>
    overruns.push(`"${actor}" was invoked more often than the path planned (${planned})`),
  );
  const counter = countEffects(tool, { ...options.actors, ...standIns }, (actor) =>
    effects.push({ actor, ...(lastBatch.refused.length > 0 ? { afterRefusing: [...lastBatch.refused] } : {}) }),
  );
  let endedIn: string | undefined;
  const probed = {
    ...tool,
    machine: withFinalStateProbe(tool.machine as AnyStateMachine, (state) => (endedIn = state)),
  };
  const answer = answerPolicy(tool, path.answers);
  const run = await runFlow(
    probed,
    options.args,
    (key, request, occurrence, asked: AskedQuestion) => {
      const given = answer(key, request, occurrence, asked);
      const where = JSON.stringify(asked.in);
      if (where !== lastBatch.where) lastBatch = { where, refused: [] };
      const action = (given as { action?: unknown } | undefined)?.action;
      if (typeof action === 'string' && REFUSALS.has(action)) lastBatch.refused.push(key);
      return given;
    },
    { ...options, actors: { ...standIns, ...counter.actors } as Record<string, AnyActorLogic> },
  );
  const allowed = options.effectsAfterDecline ?? {};
  const refusedThenRan = effects.flatMap(({ actor, afterRefusing }) =>
    (afterRefusing ?? [])
      .filter((key) => !(allowed[key] ?? []).includes(actor))
      .map((key) => `the effect "${actor}" started after "${key}" was declined or cancelled`),
  );
  const unusedOutcomes = Object.entries(unused()).map(
    ([actor, left]) => `the plan gives "${actor}" ${left === 1 ? 'an outcome' : `${left} outcomes`} the run never used`,
  );
  const problem =
    pathProblem(run, path.output) ??
    endingProblem(path, endedIn, run) ??
    askedProblem(path, run) ??
    [...overruns, ...unusedOutcomes, ...refusedThenRan][0];
  return { path, run, ...(endedIn ? { endedIn } : {}), effects, ...(problem ? { problem } : {}) };
}

/** The machine's top-level final states that none of the walked paths ended in. */
export function unreachedFinals(tool: ToolDefinition, walked: WalkedPath[]): string[] {
  const reached = new Set(walked.map((w) => w.endedIn));
  const root = (tool.machine as AnyStateMachine).root;
  if (root.type === 'parallel') return [];
  return Object.entries(root.states)
    .filter(([name, node]) => node.type === 'final' && !reached.has(name))
    .map(([name]) => name);
}

/** Every path, walked one after another (a task's timers run on real time). */
export async function walkPaths<TResponses = UntypedResponses>(
  tool: ToolDefinition<AnyStateMachine, TResponses>,
  options: WalkOptions<TResponses> = {},
): Promise<PathsWalk> {
  const paths: WalkedPath[] = [];
  for (const path of planPaths(tool, options)) paths.push(await walkPath(tool, path, options));
  return { paths, unreached: unreachedFinals(tool as ToolDefinition, paths) };
}
