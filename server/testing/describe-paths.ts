/**
 * The one-line mocha helper: `describePaths(myTool)` in a test file generates one test per path
 * of the machine (walk-paths.ts), named after the answers it gives and where it should end, and a
 * last test that every final state was reached. Mocha's `describe` and `it` are taken from the
 * globals mocha sets up, so the package does not depend on mocha.
 */
import type { AnyStateMachine } from 'xstate';
import type { ToolDefinition, UntypedResponses } from '../engine/index.js';
import { planPaths, type AnswerPath } from './path-plan.js';
import { unreachedFinals, walkPath, type WalkedPath, type WalkOptions } from './walk-paths.js';

interface MochaGlobals {
  describe(title: string, body: (this: { timeout(ms: number): void }) => void): void;
  it(title: string, body: (this: { skip(): void }) => Promise<void>): void;
}

/** `walkPaths`' options, plus mocha's per-test timeout and the final states no path should reach. */
export interface DescribePathsOptions<TResponses = UntypedResponses> extends WalkOptions<TResponses> {
  /** Per test (default 30 s: a task's timers run on real time). */
  timeoutMs?: number;
  /** Final states no path is meant to reach (each is named in the last test otherwise). */
  unreachable?: string[];
}

/** `ends in "released"`, `ends in "failed" with a tool error`. */
function ending(path: AnswerPath): string {
  const planned = JSON.parse(path.endsIn) as unknown;
  const state = typeof planned === 'string' ? `"${planned}"` : path.endsIn;
  return `ends in ${state}${path.output === 'tool error' ? ' with a tool error' : ''}`;
}

/**
 * One mocha test per path of the tool's machine, each replayed through real rounds and checked
 * against where the plan says it ends, and a last test that every final state was reached. Call it
 * at the top level of a test file (it uses mocha's `describe` and `it`).
 * @example
 * ```ts
 * // test/release.test.ts: one mocha test per path of the machine, and one that every final state is reached.
 * import { describePaths } from 'baton-mcp/testing';
 * import { releaseTool } from './tools/release.js';
 *
 * describePaths(releaseTool);
 * ```
 */
export function describePaths<TResponses = UntypedResponses>(
  tool: ToolDefinition<AnyStateMachine, TResponses>,
  options: DescribePathsOptions<TResponses> = {},
): void {
  const { describe, it } = globalThis as unknown as MochaGlobals;
  if (typeof describe !== 'function') throw new Error('describePaths runs inside mocha (describe/it are missing)');
  const paths = planPaths(tool, options);
  describe(`${tool.name}: every path of the machine`, function () {
    this.timeout(options.timeoutMs ?? 30_000);
    const walked: WalkedPath[] = [];
    it('has at least one path to a final state', async () => {
      if (paths.length === 0) throw new Error(`${tool.name}: the graph holds no path from the start to a final state`);
    });
    for (const path of paths) {
      it(`${path.title}: ${ending(path)}`, async () => {
        const result = await walkPath(tool, path, options);
        walked.push(result);
        if (result.problem) throw new Error(`${tool.name}, path "${path.title}": ${result.problem}`);
      });
    }
    it('reaches every final state', async function () {
      // Only when every path ran (not under --grep): a path left out would count as unreached.
      if (walked.length < paths.length) this.skip();
      const unreached = unreachedFinals(tool as ToolDefinition, walked).filter(
        (state) => !(options.unreachable ?? []).includes(state),
      );
      if (unreached.length > 0) {
        throw new Error(
          `${tool.name}: no walked path ends in ${unreached.map((state) => `"${state}"`).join(', ')}. Give the answers (answers: { key: [...] }) or the actor outcomes (outcomes: { actor: [done(...), fail(...)] }) that lead there, or list the state in unreachable.`,
        );
      }
    });
  });
}
