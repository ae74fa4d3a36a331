/** Every state node of a machine, depth first from `node`: what the start-up checks walk. */
import type { AnyStateNode } from 'xstate';

export function eachStateNode(node: AnyStateNode, visit: (node: AnyStateNode) => void): void {
  visit(node);
  for (const child of Object.values(node.states)) eachStateNode(child, visit);
}
