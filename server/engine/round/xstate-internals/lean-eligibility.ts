/**
 * Which machines the lean actor may run: those whose states, as written, start no child and no
 * timer. Anything else takes XState's own `createActor`.
 */
import { StateMachine, StateNode, type AnyStateMachine } from 'xstate';

/** XState's built-in action types that start a child or a timer (a delayed raise or sendTo). */
function startsWork(action: unknown, machine: AnyStateMachine): boolean {
  const named = typeof action === 'string' ? action : (action as { type?: unknown } | null)?.type;
  const resolved =
    typeof action === 'function'
      ? action
      : typeof named === 'string'
        ? (machine.implementations.actions as Record<string, unknown>)[named]
        : undefined;
  if (typeof resolved !== 'function') return false;
  const builtin = resolved as { type?: unknown; delay?: unknown };
  if (builtin.type === 'xstate.spawnChild') return true;
  return (builtin.type === 'xstate.raise' || builtin.type === 'xstate.sendTo') && builtin.delay !== undefined;
}

function nodeStartsWork(node: StateNode, machine: AnyStateMachine): boolean {
  if (node.invoke.length > 0 || node.after.length > 0) return true;
  const actions: unknown[] = [...node.entry, ...node.exit];
  if (node.type === 'compound') actions.push(...node.initial.actions);
  for (const transition of node.always ?? []) actions.push(...transition.actions);
  for (const transitions of node.transitions.values()) for (const t of transitions) actions.push(...t.actions);
  if (actions.some((action) => startsWork(action, machine))) return true;
  return Object.values(node.states).some((child) => nodeStartsWork(child as StateNode, machine));
}

const eligibility = new WeakMap<AnyStateMachine, boolean>();

/**
 * Whether a machine may run in a LeanActor: one made by the XState this folder was tested with, whose
 * states invoke nothing and have no `after`, and whose actions, as written, spawn no child and
 * schedule no delayed event. (An action that does so only at run time, in `enqueueActions` or through
 * `spawn` in `assign`, still runs correctly: LeanSystem keeps children and timers as XState does.)
 */
export function leanEligible(machine: AnyStateMachine): boolean {
  let eligible = eligibility.get(machine);
  if (eligible === undefined) {
    eligible = machine instanceof StateMachine && !nodeStartsWork(machine.root as StateNode, machine);
    eligibility.set(machine, eligible);
  }
  return eligible;
}
