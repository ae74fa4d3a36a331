/**
 * The release example with a stand-in deployment that counts itself, so a test can prove an
 * effect ran once, or not at all. `ms` makes the deployment take time (honouring its abort
 * signal), so presentations can overlap and budgets can run out.
 */
import { fromPromise } from 'xstate';
import { releaseMachine, releaseTool } from '../../machines/examples/release.js';
import { defineTool } from '../../server/engine/index.js';

export function countingRelease(ms = 0) {
  const counter = { deployments: 0 };
  const tool = defineTool({
    ...releaseTool,
    machine: releaseMachine.provide({
      actors: {
        deploy: fromPromise(async ({ signal }) => {
          counter.deployments += 1;
          const deploymentId = `d${counter.deployments}`;
          if (ms > 0) {
            await new Promise<void>((resolve, reject) => {
              const timer = setTimeout(resolve, ms);
              signal.addEventListener('abort', () => {
                clearTimeout(timer);
                reject(new Error('deployment aborted'));
              });
            });
          }
          return { deploymentId };
        }),
      },
    }),
  });
  return { tool, counter };
}
