/**
 * Whether a machine could take an event type at all, read from its definition: some state has a
 * transition for exactly that type, or a wildcard (`*`, `prefix.*`) that may cover it. Cached per
 * machine. A round asks this before asking xstate (`snapshot.can`, a whole transition computed
 * and thrown away) about events most machines never name, such as the `answer.<key>.unsupported`
 * fallback of a question that has none.
 */
import type { AnyStateMachine } from 'xstate';
import { eachStateNode } from '../state-nodes.js';

interface Handled {
  exact: Set<string>;
  /** Some state listens with a wildcard: only xstate can say what it matches. */
  wildcard: boolean;
}

const handledByMachine = new WeakMap<AnyStateMachine, Handled>();

function collect(machine: AnyStateMachine, handled: Handled): void {
  eachStateNode(machine.root, (node) => {
    for (const descriptor of node.transitions.keys()) {
      if (descriptor === '*' || descriptor.endsWith('.*')) handled.wildcard = true;
      else handled.exact.add(descriptor);
    }
  });
}

function handledBy(machine: AnyStateMachine): Handled {
  let handled = handledByMachine.get(machine);
  if (!handled) {
    handled = { exact: new Set(), wildcard: false };
    collect(machine, handled);
    handledByMachine.set(machine, handled);
  }
  return handled;
}

/** False only when no state of `machine` can take an event of this type. */
export function mayHandle(machine: AnyStateMachine, type: string): boolean {
  const handled = handledBy(machine);
  return handled.wildcard || handled.exact.has(type);
}

/** False only when no state of `machine` can take any event whose type ends with `suffix`. */
export function mayHandleAnyEndingWith(machine: AnyStateMachine, suffix: string): boolean {
  const handled = handledBy(machine);
  if (handled.wildcard) return true;
  for (const type of handled.exact) if (type.endsWith(suffix)) return true;
  return false;
}
