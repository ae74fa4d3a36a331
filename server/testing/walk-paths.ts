/**
 * `walkPaths`: every path the machine graph holds (path-plan.ts), replayed through real rounds
 * with `runFlow`. A path passes when its run ends with a tool result that is not an error, within
 * the round limit (a flow still asking after it loops, e.g. a decline that asks again forever).
 */
import type { ToolDefinition } from '../engine/index.js';
import { planPaths, type AnswerPath, type PlanOptions } from './path-plan.js';
import { runFlow, type FlowRun, type RunFlowOptions } from './run-flow.js';

export interface WalkOptions extends PlanOptions, RunFlowOptions {
  /** Arguments of every run (default: the tool's `exampleArguments`, else made from its input schema). */
  args?: Record<string, unknown>;
}

export interface WalkedPath {
  path: AnswerPath;
  run: FlowRun;
  /** Why the path fails, or undefined when it ends well. */
  problem?: string;
}

/** Why a run did not end well, or undefined. */
export function pathProblem(run: FlowRun): string | undefined {
  if (run.outcome === 'unfinished') {
    return `still asking after ${run.rounds.length} rounds (asked ${run.asked.join(', ')}): a loop?`;
  }
  if (run.error) return `ended with error ${run.error.code}: ${run.error.message}`;
  if (run.result?.isError === true) {
    const text = (run.result.content as Array<{ text?: string }> | undefined)?.map((c) => c.text).join(' ');
    return `ended with a tool error: ${text ?? ''}`;
  }
  return undefined;
}

/** Replays one planned path through real rounds. */
export async function walkPath(tool: ToolDefinition, path: AnswerPath, options: WalkOptions = {}): Promise<WalkedPath> {
  const run = await runFlow(tool, options.args, path.answers, options);
  const problem = pathProblem(run);
  return { path, run, ...(problem ? { problem } : {}) };
}

/** Every path, walked one after another (a task's timers run on real time). */
export async function walkPaths(tool: ToolDefinition, options: WalkOptions = {}): Promise<WalkedPath[]> {
  const walked: WalkedPath[] = [];
  for (const path of planPaths(tool, options)) walked.push(await walkPath(tool, path, options));
  return walked;
}
