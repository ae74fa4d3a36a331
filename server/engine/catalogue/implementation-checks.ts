/**
 * Names a machine refers to but does not implement. A machine kept as JSON (the config a visual
 * editor exports) names its actions, guards, actors and delays as strings and gets their code from
 * `setup({...})` or `.provide({...})`; a name with no implementation would otherwise surface only
 * when that transition runs (XState throws for a guard, and silently skips an action).
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { eachStateNode } from '../state-nodes.js';

type Kind = 'action' | 'guard' | 'actor' | 'delay';

const IMPLEMENTATION_GROUP: Record<Kind, 'actions' | 'guards' | 'actors' | 'delays'> = {
  action: 'actions',
  guard: 'guards',
  actor: 'actors',
  delay: 'delays',
};

/** A reference by name: `'notify'` or `{ type: 'notify', params }`. Functions are implementations already. */
function referencedName(item: unknown): string | undefined {
  if (typeof item === 'string') return item;
  if (typeof item === 'object' && item !== null && typeof (item as { type?: unknown }).type === 'string') {
    return (item as { type: string }).type;
  }
  return undefined;
}

function guardNames(guard: unknown): string[] {
  const name = referencedName(guard);
  if (name !== undefined) return [name];
  // xstate's and/or/not helpers carry their operands.
  const operands = (guard as { guards?: unknown[] } | undefined)?.guards;
  return Array.isArray(operands) ? operands.flatMap(guardNames) : [];
}

interface TransitionLike {
  actions?: unknown;
  guard?: unknown;
  delay?: unknown;
}

/** Problems for every action, guard, actor and delay named in `machine` but missing from its implementations. */
export function missingImplementations(label: string, machine: AnyStateMachine): string[] {
  const implementations = machine.implementations as unknown as Record<string, Record<string, unknown>>;
  const found = new Map<string, { kind: Kind; name: string; state: string }>();
  const note = (kind: Kind, name: string, node: AnyStateNode) => {
    // Built-in action types (xstate.raise, xstate.cancel for `after`) are not the author's to implement.
    if (name.startsWith('xstate.')) return;
    if (implementations[IMPLEMENTATION_GROUP[kind]]?.[name] !== undefined) return;
    const key = `${kind}\u0000${name}`;
    if (!found.has(key)) found.set(key, { kind, name, state: node.id });
  };
  const actions = (list: unknown, node: AnyStateNode) => {
    for (const item of Array.isArray(list) ? list : [list]) {
      const name = referencedName(item);
      if (name !== undefined) note('action', name, node);
    }
  };
  const transition = (t: TransitionLike, node: AnyStateNode) => {
    actions(t.actions ?? [], node);
    for (const name of guardNames(t.guard)) note('guard', name, node);
    if (typeof t.delay === 'string') note('delay', t.delay, node);
  };
  const visit = (node: AnyStateNode) => {
    actions(node.entry, node);
    actions(node.exit, node);
    for (const list of node.transitions.values()) for (const t of list) transition(t as TransitionLike, node);
    for (const t of node.always ?? []) transition(t as TransitionLike, node);
    if (node.initial) actions(node.initial.actions, node);
    for (const invoke of node.invoke) {
      // Inline logic gets a generated `xstate.invoke.*` source, implemented by XState itself.
      if (typeof invoke.src === 'string') note('actor', invoke.src, node);
    }
  };
  eachStateNode(machine.root, visit);
  return [...found.values()].map(
    ({ kind, name, state }) =>
      `${label}, state "${state}": the ${kind} "${name}" has no implementation. Implement it by name in setup({ ${IMPLEMENTATION_GROUP[kind]}: { ${JSON.stringify(name)}: … } }) or machine.provide(…).`,
  );
}
