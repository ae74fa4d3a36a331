/**
 * Where a tool's effects are. An effect is an invoked actor the tool does not list in
 * `safeActors` (actors with no effect outside the process, such as a lookup). Two start-up checks
 * use it:
 *
 * - the docs run each tool's example for real, so every effect needs a stand-in in
 *   `exampleActors` (the first red-team finding of this kind: reading the docs deployed);
 * - a tool that says `idempotentHint: false` should make the question before each effect single
 *   use, or a client that presents the same state twice runs the effect twice.
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { ConfigurationError } from '../configuration-error.js';
import { INPUT_META, SINGLE_USE_TAG } from '../authoring/input-states.js';
import type { Logger } from '../logger.js';
import type { ToolDefinition } from '../authoring/tool-definition.js';
import { TASK_TAG } from '../authoring/task-authoring.js';
import { eachStateNode } from '../state-nodes.js';

interface Invoked {
  /** The actor's name (`setup({ actors })`), or XState's generated name for inline logic. */
  src: string;
  /** The state that invokes it. */
  state: string;
}

function invokedBy(node: AnyStateNode): Invoked[] {
  return node.invoke.map((invoke) => ({ src: String(invoke.src), state: node.id }));
}

function effectsOf(node: AnyStateNode, safe: Set<string>): Invoked[] {
  return invokedBy(node).filter((invoked) => !safe.has(invoked.src));
}

/** Every actor the machine invokes, with the state that invokes it. */
export function invokedActors(machine: AnyStateMachine): Invoked[] {
  const found: Invoked[] = [];
  eachStateNode(machine.root, (node) => found.push(...invokedBy(node)));
  return found;
}

/** Problems for each effect the docs would run for real: neither safe nor given a stand-in. */
export function docsEffectProblems(tool: ToolDefinition): string[] {
  const covered = new Set([...(tool.safeActors ?? []), ...Object.keys(tool.exampleActors ?? {})]);
  return invokedActors(tool.machine)
    .filter((invoked) => !covered.has(invoked.src))
    .map(
      ({ src, state }) =>
        `tool "${tool.name}", state "${state}": the docs would run the invoked actor "${src}" for real when they show the example. Give it a stand-in in exampleActors, or list it in safeActors if it has no effect outside the process${src.startsWith('xstate.') ? ' (invoke it by name from setup({ actors }) so a stand-in can replace it)' : ''}.`,
    );
}

const isInput = (node: AnyStateNode) => Boolean((node.meta as Record<string, unknown> | undefined)?.[INPUT_META]);

/** A state and the descendants entering it enters (initial children; every region of a parallel state). */
function entered(node: AnyStateNode): AnyStateNode[] {
  if (node.type === 'parallel') return [node, ...Object.values(node.states).flatMap((c) => entered(c as AnyStateNode))];
  const initial = node.initial?.target ?? [];
  return [node, ...initial.flatMap((c) => entered(c as AnyStateNode))];
}

/**
 * States reachable from `from` before the machine waits for another answer. Over-approximate on
 * purpose: a state's ancestors' transitions count too (they apply while it is active).
 */
function reachableBeforeNextQuestion(from: AnyStateNode): AnyStateNode[] {
  const seen = new Set<AnyStateNode>();
  const queue: AnyStateNode[] = [from];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (let owner: AnyStateNode | undefined = node; owner; owner = owner.parent) {
      const transitions = [...[...owner.transitions.values()].flat(), ...(owner.always ?? [])];
      for (const transition of transitions) {
        for (const target of transition.target ?? []) {
          for (const next of entered(target as AnyStateNode)) {
            if (seen.has(next)) continue;
            seen.add(next);
            if (!isInput(next)) queue.push(next);
          }
        }
      }
    }
  }
  return [...seen];
}

/**
 * For a tool with `idempotentHint: false`, each input state that is not single use while an
 * effect follows its answer (before the next question): warnings naming the state and the effect.
 */
export function reusableEffectWarnings(tool: ToolDefinition): string[] {
  if (tool.annotations?.idempotentHint !== false || tool.singleUse) return [];
  const safe = new Set(tool.safeActors ?? []);
  // A question asked inside a task is answered once, through tasks/update: no state to present twice.
  const presentable = tool.task === 'required' ? reachableBeforeTask(tool.machine) : undefined;
  const warnings: string[] = [];
  eachStateNode(tool.machine.root, (node) => {
    if (!isInput(node) || node.tags.includes(SINGLE_USE_TAG)) return;
    if (presentable && !presentable.has(node)) return;
    const effects = reachableBeforeNextQuestion(node).flatMap((next) => effectsOf(next, safe));
    const names = [...new Set(effects.map((effect) => `"${effect.src}"`))];
    if (names.length === 0) return;
    warnings.push(
      `tool "${tool.name}", state "${node.id}": its answer leads to ${names.join(', ')} and the tool says idempotentHint: false, but the state is not single use, so a client presenting it twice runs the effect twice. Pass singleUse: true to its ask… helper (or list actors without effects in safeActors).`,
    );
  });
  return warnings;
}

/** A state where a round hands over to a task: it runs work, sets a timer, or is tagged so. */
const startsTaskHere = (node: AnyStateNode) =>
  node.invoke.length > 0 || node.after.length > 0 || node.tags.includes(TASK_TAG);

/**
 * Every state where a task can start (key paths, document order), read from the machine as the
 * checks here read it; the docs list them (docs/tasks.md, "Where the task starts").
 */
export function taskStartStates(machine: AnyStateMachine): string[] {
  const found: string[] = [];
  eachStateNode(machine.root, (node) => {
    if (node.parent && startsTaskHere(node)) found.push(node.path.join('.'));
  });
  return found;
}

/**
 * States a synchronous round can reach before it hands over to a task (round/task-handover.ts),
 * over-approximated as above; a handover state is reached but not gone past.
 */
function reachableBeforeTask(machine: AnyStateMachine): Set<AnyStateNode> {
  const seen = new Set<AnyStateNode>(entered(machine.root));
  const queue = [...seen].filter((node) => !startsTaskHere(node));
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (let owner: AnyStateNode | undefined = node; owner; owner = owner.parent) {
      const transitions = [...[...owner.transitions.values()].flat(), ...(owner.always ?? [])];
      for (const target of transitions.flatMap((transition) => transition.target ?? [])) {
        for (const next of entered(target as AnyStateNode)) {
          if (seen.has(next)) continue;
          seen.add(next);
          if (!startsTaskHere(next)) queue.push(next);
        }
      }
    }
  }
  return seen;
}

/**
 * Both checks at start-up: warnings are logged; with the docs served, an effect without a
 * stand-in stops the server with every problem named.
 */
export function checkToolEffects(tools: ToolDefinition[], options: { docs: boolean; logger: Logger }): void {
  for (const message of tools.flatMap(reusableEffectWarnings)) {
    options.logger.warn('effect_after_reusable_state', { message });
  }
  const problems = options.docs ? tools.flatMap(docsEffectProblems) : [];
  if (problems.length > 0) {
    throw new ConfigurationError(
      `The docs run each tool's example, and would run these effects for real:\n  - ${problems.join('\n  - ')}\nOr serve without docs: createServer({ docs: false }).`,
    );
  }
}
