/**
 * What the bench knows about each target: the name the report gives it, what it runs on, and who
 * names the keys of its `inputRequests` (the flow definition, or the library: the Python SDK keys
 * a resolver's question by the resolver's `module:qualname`).
 */
import type { TargetKind } from './target-protocol.js';

export interface TargetInfo {
  name: string;
  runtime: 'node' | 'python';
  /**
   * 'flow': every question is asked under its key in bench/flows/bench-flows.ts. 'library': under
   * a key the library chooses, so the load generator knows a question by the field it asks.
   */
  questionKeys: 'flow' | 'library';
  /** The server's source file, for the report. */
  source: string;
}

export const TARGETS: Record<TargetKind, TargetInfo> = {
  baton: { name: 'Baton', runtime: 'node', questionKeys: 'flow', source: 'bench/targets/baton-target.ts' },
  sdk: { name: 'TS SDK', runtime: 'node', questionKeys: 'flow', source: 'bench/targets/sdk-target.ts' },
  'python-sdk': {
    name: 'Python SDK',
    runtime: 'python',
    questionKeys: 'library',
    source: 'bench/targets/python-sdk-target.py',
  },
  fastmcp: { name: 'FastMCP', runtime: 'python', questionKeys: 'flow', source: 'bench/targets/fastmcp-target.py' },
  floor: { name: 'floor (bare Koa)', runtime: 'node', questionKeys: 'flow', source: 'bench/targets/floor-target.ts' },
};

export function isPythonTarget(kind: TargetKind): boolean {
  return TARGETS[kind].runtime === 'python';
}
