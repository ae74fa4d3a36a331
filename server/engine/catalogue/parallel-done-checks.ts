/**
 * Start-up check: a parallel state whose regions can all reach a final state needs `onDone`.
 * Without it, once every region is final the machine stays in the parallel state with nothing
 * left to ask and nothing running: the flow can neither answer nor ask, which used to surface
 * only at run time as an internal error (-32603). A region without a final state never finishes,
 * so a parallel state made of such regions needs no `onDone`; the machine's root needs none (its
 * regions all final is the machine's own end).
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { eachStateNode } from '../state-nodes.js';

/** Whether a region can end: it is final, has a final child, or is a parallel state whose regions all can. */
function canFinish(region: AnyStateNode): boolean {
  if (region.type === 'final') return true;
  const children = Object.values(region.states);
  if (region.type === 'parallel') return children.every(canFinish);
  return children.some((child) => child.type === 'final');
}

export function parallelDoneProblems(label: string, machine: AnyStateMachine): string[] {
  const problems: string[] = [];
  eachStateNode(machine.root, (node) => {
    if (node.type !== 'parallel' || !node.parent) return;
    // A nested parallel state finishes its parent region instead: the parent's final child decides.
    if (node.parent.type === 'parallel') return;
    if (node.transitions.has(`xstate.done.state.${node.id}`)) return;
    if (!Object.values(node.states).every(canFinish)) return;
    problems.push(
      `${label}, state "${node.id}": a parallel state whose regions all reach a final state needs onDone; without it the flow stops there once they have, asking nothing. Add onDone: '<the next state>'.`,
    );
  });
  return problems;
}
