/**
 * The one-line mocha helper: `describePaths(myTool)` in a test file generates one test per path
 * of the machine (walk-paths.ts), named after the answers it gives. Mocha's `describe` and `it`
 * are taken from the globals mocha sets up, so the package does not depend on mocha.
 */
import type { ToolDefinition } from '../engine/index.js';
import { planPaths } from './path-plan.js';
import { walkPath, type WalkOptions } from './walk-paths.js';

interface MochaGlobals {
  describe(title: string, body: (this: { timeout(ms: number): void }) => void): void;
  it(title: string, body: () => Promise<void>): void;
}

export interface DescribePathsOptions extends WalkOptions {
  /** Per test (default 30 s: a task's timers run on real time). */
  timeoutMs?: number;
}

export function describePaths(tool: ToolDefinition, options: DescribePathsOptions = {}): void {
  const { describe, it } = globalThis as unknown as MochaGlobals;
  if (typeof describe !== 'function') throw new Error('describePaths runs inside mocha (describe/it are missing)');
  const paths = planPaths(tool, options);
  describe(`${tool.name}: every path of the machine`, function () {
    this.timeout(options.timeoutMs ?? 30_000);
    it('has at least one path to a final state', async () => {
      if (paths.length === 0) throw new Error(`${tool.name}: the graph holds no path from the start to a final state`);
    });
    for (const path of paths) {
      it(`${path.title}: ends without an error`, async () => {
        const walked = await walkPath(tool, path, options);
        if (walked.problem) throw new Error(`${tool.name}, path "${path.title}": ${walked.problem}`);
      });
    }
  });
}
