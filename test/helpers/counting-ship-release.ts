/**
 * The ship-release example with stand-ins that count themselves: builds started, builds stopped
 * before they finished (the abort reached the step), and promotions. A test can then prove that a
 * cancel stopped the running work and that nothing was promoted, or that it was promoted once.
 */
import { fromCallback, fromPromise } from 'xstate';
import { shipReleaseMachine, shipReleaseTool } from '../../machines/examples/ship-release.js';
import { defineTool, type ToolDefinition } from '../../server/engine/index.js';

export interface ShipReleaseCounter {
  buildsStarted: number;
  /** Builds whose actor was stopped before it reported `build.done`. */
  buildsAborted: number;
  promotions: number;
}

/** `stepMs` overrides the build's step length (4 steps); the machine's own input says 300 ms. */
export function countingShipRelease(options: { stepMs?: number } = {}): {
  tool: ToolDefinition;
  counter: ShipReleaseCounter;
} {
  const counter: ShipReleaseCounter = { buildsStarted: 0, buildsAborted: 0, promotions: 0 };
  const build = fromCallback<{ type: string }, { service: string; version: string; stepMs: number }>(
    ({ input, sendBack }) => {
      counter.buildsStarted += 1;
      let step = 0;
      let done = false;
      const timer = setInterval(() => {
        step += 1;
        sendBack({ type: 'build.progress', step, of: 4, what: `step ${step}` } as never);
        if (step === 4) {
          done = true;
          clearInterval(timer);
          sendBack({ type: 'build.done', artifact: `${input.service}-${input.version}.tar.gz` } as never);
        }
      }, options.stepMs ?? input.stepMs);
      return () => {
        clearInterval(timer);
        if (!done) counter.buildsAborted += 1;
      };
    },
  );
  const promote = fromPromise<{ promotion: string }, { artifact: string }>(async ({ input }) => {
    counter.promotions += 1;
    return { promotion: `${input.artifact} promoted` };
  });
  const tool = defineTool({
    ...shipReleaseTool,
    machine: shipReleaseMachine.provide({ actors: { build, promote } as never }),
  });
  return { tool, counter };
}
