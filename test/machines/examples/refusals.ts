/**
 * The examples' behavioural tests of declining and cancelling: one run per question and refusal,
 * the tool's effects counted (countEffects), every other question answered as in the example.
 */
import { cancel, countEffects, decline, runFlow, type FlowRun } from '../../../server/testing/index.js';
import type { ToolDefinition } from '../../../server/engine/index.js';

export const REFUSALS = [decline, cancel];

/** Runs the tool refusing `key` the first time it is asked: the run, and how often each effect started. */
export async function refuseAt(
  tool: ToolDefinition,
  key: string,
  refusal: typeof decline | typeof cancel,
): Promise<{ run: FlowRun; effects: Record<string, number> }> {
  const counter = countEffects(tool);
  const run = await runFlow(tool, undefined, { [key]: [refusal()] }, { actors: counter.actors });
  return { run, effects: counter.counts };
}

/** The text of a run's result. */
export const resultText = (run: FlowRun) =>
  ((run.result?.content ?? []) as Array<{ text?: string }>).map((block) => block.text ?? '').join(' ');
