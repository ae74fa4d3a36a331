/**
 * The deployment every version of `release` runs (release.ts, and the kept release.v1.ts): one
 * effect, shared, so a flow that finishes on a kept version deploys exactly as a new one does.
 */
import { appendFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { fromPromise } from 'xstate';

export interface DeployInput {
  service: string;
  version: string;
  window: string;
}

/**
 * Stands in for a real deployment API: takes a moment and honours cancellation. With
 * `BATON_DEPLOY_JOURNAL=<file>` it also appends one line per deployment it starts (the id and the
 * process), so an operator or a test can count effects across every instance of a fleet: each
 * line is one `O_APPEND` write, which processes sharing the file cannot interleave.
 */
export const simulatedDeploy = fromPromise<{ deploymentId: string }, DeployInput>(async ({ input, signal }) => {
  const deploymentId = deploymentIdOf(input);
  const journal = process.env.BATON_DEPLOY_JOURNAL;
  if (journal) appendFileSync(journal, `${deploymentId} ${process.pid}\n`);
  // Rejects with an AbortError when the round is cancelled.
  await delay(15, undefined, { signal });
  return { deploymentId };
});

function deploymentIdOf(input: DeployInput): string {
  return `${input.service}@${input.version}#${input.window}`;
}

/** What the docs' example runs instead of a deployment: the same answer, and no effect. */
export const exampleDeploy = fromPromise<{ deploymentId: string }, DeployInput>(async ({ input }) => ({
  deploymentId: deploymentIdOf(input),
}));
