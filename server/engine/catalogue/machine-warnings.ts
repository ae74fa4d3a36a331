/**
 * Start-up warnings for machines that are valid but hold an author trap (docs/xstate.md, "Author
 * traps"): things XState does as documented that surprise an author once a flow spans rounds.
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { INPUT_TAG } from '../authoring/input-states.js';
import { eachStateNode } from '../state-nodes.js';

function lineage(node: AnyStateNode): AnyStateNode[] {
  const list: AnyStateNode[] = [];
  for (let current: AnyStateNode | undefined = node; current; current = current.parent) list.push(current);
  return list;
}

/**
 * An eventless (`always`) transition with a guard on an input state or one of its ancestors is
 * evaluated only after an event; a round that delivers no answer sends none, so a guard such as
 * "the deadline has passed" is never re-checked while the question is asked again.
 */
export function machineWarnings(label: string, machine: AnyStateMachine): string[] {
  const warned = new Set<string>();
  const warnings: string[] = [];
  eachStateNode(machine.root, (input) => {
    if (!input.tags.includes(INPUT_TAG)) return;
    for (const node of lineage(input)) {
      const guarded = (node.always ?? []).some((t) => t.guard !== undefined);
      if (!guarded || warned.has(node.id)) continue;
      warned.add(node.id);
      warnings.push(
        `${label}, state "${node.id}": a guarded "always" transition around the input state "${input.id}" is checked only when an event arrives; a round without an answer sends none, so a time or deadline guard there is not re-checked on a retry. Check the deadline in the answer's transition (or in a state the answer leads to).`,
      );
    }
  });
  return warnings;
}
