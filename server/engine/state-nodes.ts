/**
 * Every state node of a machine, depth first from `node`, parents before their children: what
 * the start-up checks, the round's event index and the docs graph walk.
 */
import type { AnyStateNode } from 'xstate';

export function eachStateNode(node: AnyStateNode, visit: (node: AnyStateNode) => void): void {
  visit(node);
  for (const child of Object.values(node.states)) eachStateNode(child, visit);
}

/** `node` and every node below it, in the order `eachStateNode` visits them. */
export function stateNodesUnder(node: AnyStateNode): AnyStateNode[] {
  const nodes: AnyStateNode[] = [];
  eachStateNode(node, (each) => nodes.push(each));
  return nodes;
}
