/**
 * A hash over exactly what a persisted snapshot depends on: state ids and types, initial states,
 * history, transition events and targets, eventless transitions, and every implementation named
 * (guards, also inside and/or/not; actions; invoked and spawned actor sources), and the field
 * names of a context written as an object. Meta,
 * descriptions and action bodies are left out, so rewording a question does not invalidate the
 * flows in flight, while renaming or re-wiring a state does (docs/architecture.md, "Deploys").
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { canonicalJson, shortDigest } from './canonical-digest.js';

/**
 * A guard as the hash sees it: its name, or the shape of an and/or/not/stateIn combinator with the
 * names inside it. Inline guards have no name and count as null.
 */
function guardShape(guard: unknown): unknown {
  if (typeof guard === 'string') return guard;
  if (guard === undefined || guard === null) return null;
  const g = guard as { type?: unknown; guards?: unknown[]; stateValue?: unknown; name?: unknown };
  if (typeof g.type === 'string') return g.type;
  // xstate's combinators are functions named after themselves, carrying their operands.
  if (Array.isArray(g.guards)) return { [String(g.name)]: g.guards.map(guardShape) };
  if (g.stateValue !== undefined) return { stateIn: g.stateValue };
  return null;
}

/**
 * The implementations a list of actions names: named actions, and the actor names that
 * spawnChild spawns. Inline action bodies are left out (docs/architecture.md, "Deploys").
 */
function actionNames(list: unknown): string[] {
  const names: string[] = [];
  for (const action of Array.isArray(list) ? list : [list]) {
    if (typeof action === 'string') names.push(action);
    const a = action as { type?: unknown; src?: unknown } | undefined;
    if (typeof a?.type !== 'string') continue;
    if (!a.type.startsWith('xstate.')) names.push(a.type);
    else if (typeof a.src === 'string') names.push(`${a.type}(${a.src})`);
  }
  return names;
}

function targets(transition: { target?: ReadonlyArray<AnyStateNode> | undefined; guard?: unknown; actions?: unknown }) {
  return {
    to: (transition.target ?? []).map((node) => node.id),
    guard: guardShape(transition.guard),
    actions: actionNames(transition.actions),
  };
}

function describe(node: AnyStateNode): unknown {
  const on: Record<string, unknown> = {};
  for (const [event, list] of node.transitions) on[event] = list.map(targets);
  return {
    id: node.id,
    type: node.type,
    history: node.history,
    initial: node.initial ? node.initial.target.map((n: AnyStateNode) => n.id) : null,
    on,
    always: (node.always ?? []).map(targets),
    entry: actionNames(node.entry),
    exit: actionNames(node.exit),
    invoke: node.invoke.map((inv) => ({ id: inv.id, src: typeof inv.src === 'string' ? inv.src : inv.id })),
    states: Object.values(node.states).map(describe),
  };
}

/**
 * The field names of a context written as an object in the config: renaming one would hand the
 * new machine an old context under the old name, so it restarts flows like a renamed state. A
 * context built by a function cannot be read without running it; bump `version` for those.
 */
function contextFields(machine: AnyStateMachine): string[] | null {
  const context = (machine.config as { context?: unknown }).context;
  return typeof context === 'object' && context !== null ? Object.keys(context).sort() : null;
}

export function structuralVersion(machine: AnyStateMachine): string {
  const described = { version: machine.version ?? null, context: contextFields(machine), root: describe(machine.root) };
  return shortDigest(canonicalJson(described)).slice(0, 12);
}
