/**
 * Refuses params nested deeper than any MCP request needs. Everything downstream (schema
 * validation, the argument digest, superjson) walks values recursively, so an attacker's
 * 5000-deep array would otherwise overflow the stack; JSON.parse itself is not recursive.
 */
import { invalidParams } from './protocol-error.js';

export const MAX_PARAMS_DEPTH = 64;

/** The depth of a parsed JSON value, measured without recursion. */
export function nestingDepth(value: unknown, stopAfter = Infinity): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > deepest) deepest = depth;
    if (deepest > stopAfter) return deepest;
    for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
}

export function assertShallowParams(params: unknown): void {
  if (nestingDepth(params, MAX_PARAMS_DEPTH) > MAX_PARAMS_DEPTH) {
    throw invalidParams(`Invalid params: nested more than ${MAX_PARAMS_DEPTH} levels deep`);
  }
}
