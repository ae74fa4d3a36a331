/**
 * Start-up refusals for what cannot cross a round (docs/xstate.md): long-lived work and timers that
 * would still be going while a question waits for its answer, and delays longer than a round may
 * last. A sealed state holds no work in flight and no timers, so each of these would be lost,
 * restarted, or hold the round for its whole budget. Task mode keeps timers durable, so there the
 * `after` refusals do not apply.
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { actorKind, runsUntilStopped } from './actor-kinds.js';
import { INPUT_TAG } from '../authoring/input-states.js';
import { stateNodesUnder } from '../state-nodes.js';

export interface RoundCrossingOptions {
  /** The tool runs only as a durable task, where `after` timers are durable. */
  taskMode?: boolean | undefined;
  /** The round's time budget in milliseconds. */
  timeBudgetMs: number;
}

export const TASK_FIX = "or run the tool as a task (`task: 'required'` in defineTool; see docs/tasks.md)";

function ancestors(node: AnyStateNode): AnyStateNode[] {
  const list: AnyStateNode[] = [];
  for (let parent = node.parent; parent; parent = parent.parent) list.push(parent);
  return list;
}

/** States active whenever `node` is: other regions of each parallel ancestor, and all they contain. */
function parallelSiblings(node: AnyStateNode): AnyStateNode[] {
  const siblings: AnyStateNode[] = [];
  let child = node;
  for (const parent of ancestors(node)) {
    if (parent.type === 'parallel') {
      for (const region of Object.values(parent.states) as AnyStateNode[]) {
        if (region !== child) siblings.push(...stateNodesUnder(region));
      }
    }
    child = parent;
  }
  return siblings;
}

/** The logic an invoke runs: registered by name, or inline in the state's config. */
function invokedLogic(machine: AnyStateMachine, node: AnyStateNode, index: number): unknown {
  const src = node.invoke[index]?.src;
  const named = typeof src === 'string' ? (machine.implementations.actors as Record<string, unknown>)[src] : src;
  if (named) return named;
  const config = node.config.invoke as unknown;
  const entry = (Array.isArray(config) ? config[index] : config) as { src?: unknown } | undefined;
  return entry?.src;
}

function delayMs(machine: AnyStateMachine, delay: unknown): number | undefined {
  if (typeof delay === 'number') return delay;
  const named =
    typeof delay === 'string' ? (machine.implementations.delays as Record<string, unknown>)[delay] : undefined;
  return typeof named === 'number' ? named : undefined;
}

function isInputState(node: AnyStateNode): boolean {
  return node.tags.includes(INPUT_TAG);
}

export function roundCrossingProblems(
  label: string,
  machine: AnyStateMachine,
  options: RoundCrossingOptions,
): string[] {
  const problems = new Map<string, string>();
  const add = (key: string, problem: string) => {
    if (!problems.has(key)) problems.set(key, problem);
  };
  const nodes = stateNodesUnder(machine.root);
  for (const input of nodes.filter(isInputState)) {
    const around: Array<[AnyStateNode, string]> = [
      ...ancestors(input).map((n): [AnyStateNode, string] => [n, 'contains']),
      ...parallelSiblings(input).map((n): [AnyStateNode, string] => [n, 'runs in parallel with']),
    ];
    for (const [node, relation] of around) {
      const where = `${label}, state "${node.id}"`;
      node.invoke.forEach((invoke, index) => {
        const kind = actorKind(invokedLogic(machine, node, index));
        if (!runsUntilStopped(kind)) return;
        const name =
          typeof invoke.src === 'string' && !invoke.src.startsWith('xstate.invoke.')
            ? `"${invoke.src}"`
            : 'inline logic';
        add(
          `invoke ${node.id} ${index}`,
          `${where}: invokes ${name} (${kind === 'other' ? 'an actor of unknown kind' : `a ${kind} actor`}), which keeps running while the input state "${input.id}" it ${relation} waits for an answer; it cannot cross a round. Invoke it in a state the flow leaves before asking, or use a promise that finishes.`,
        );
      });
      if (!options.taskMode && node.after.length > 0) {
        add(
          `after ${node.id}`,
          `${where}: has "after" timers while the input state "${input.id}" it ${relation} waits for an answer; a timer does not survive a round. Store a deadline in context and check it with a guard when the answer arrives, ${TASK_FIX}.`,
        );
      }
    }
  }
  if (!options.taskMode) {
    for (const node of nodes) {
      for (const transition of node.after) {
        const ms = delayMs(machine, transition.delay);
        if (ms === undefined || ms <= options.timeBudgetMs) continue;
        add(
          `long ${node.id}`,
          `${label}, state "${node.id}": "after" waits ${ms} ms, longer than the round's time budget (${options.timeBudgetMs} ms); the round would time out first. Use a shorter delay, ${TASK_FIX}.`,
        );
      }
    }
  }
  return [...problems.values()];
}
