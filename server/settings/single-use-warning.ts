/**
 * Single use without a shared guard. A state marked single use (`singleUse: true`) is accepted
 * once per guard, and the default guard is this process's memory: on one instance that is exactly
 * once, but on a fleet (or `--workers`) a client that presents the same state to two instances
 * runs the effect twice. Start-up says so when the server says it is one of many: it runs as a
 * worker of a cluster, or it was given keys (a configured key ring is how instances share flows;
 * a lone development server runs on an ephemeral one). BATON_REDIS_URL gives the fleet one guard.
 */
import { eachStateNode, SINGLE_USE_TAG, type ToolDefinition } from '../engine/index.js';

/** The tools with a single-use state (or declared single use as a whole), by name. */
export function singleUseTools(tools: readonly ToolDefinition[]): string[] {
  return tools
    .filter((tool) => {
      if (tool.singleUse) return true;
      let found = false;
      eachStateNode(tool.machine.root, (node) => (found ||= node.tags.includes(SINGLE_USE_TAG)));
      return found;
    })
    .map((tool) => tool.name);
}

export interface GuardSituation {
  /** A guard every instance shares (Redis, or one the embedder passed in). */
  shared: boolean;
  /** The server says it is one of many: a cluster worker, or configured keys. */
  oneOfMany: boolean;
}

/** The start-up banner, or undefined when single use holds as documented. */
export function singleUseWarning(tools: readonly ToolDefinition[], situation: GuardSituation): string | undefined {
  if (situation.shared || !situation.oneOfMany) return undefined;
  const names = singleUseTools(tools);
  if (names.length === 0) return undefined;
  return [
    '',
    '################################################################################',
    '#  WARNING: single-use states are guarded IN MEMORY, per instance.             #',
    `#  Tools: ${names.join(', ')}`,
    '#  On more than one instance (or --workers), a client presenting the same     #',
    '#  state to two of them runs its effect twice. Set BATON_REDIS_URL so every    #',
    '#  instance shares one guard (docs/security.md, "Single use").                 #',
    '################################################################################',
    '',
  ].join('\n');
}
