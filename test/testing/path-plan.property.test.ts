import { expect } from 'chai';
import fc from 'fast-check';
import { planPaths, walkPath } from '../../server/testing/index.js';
import { buildTool, machineSpec } from './generated-machines.js';

/** Paths planned per machine, and walked (each walk is a whole simulated run: the costly part). */
const PLANNED = 40;
const WALKED = 6;

/**
 * The kit is never wrong about a correct machine: over generated statecharts whose paths all end
 * in final states (generated-machines.ts), planned paths spread over the whole plan replay
 * through real rounds to the end the plan says, asking what the plan answers. Bounded (runs,
 * and paths walked per machine) to stay within seconds; a failure names the seed and the shrunk
 * machine.
 */
describe('planPaths / walkPath over generated machines', () => {
  it('plans at least one path, and reports no problem on any path of a correct machine', async function () {
    this.timeout(60_000);
    await fc.assert(
      fc.asyncProperty(machineSpec, async (spec) => {
        const { tool, answers } = buildTool(spec);
        const planned = planPaths(tool, { answers, limit: PLANNED });
        expect(planned, 'planned paths').to.not.be.empty;
        // Paths spread over the whole plan, not its first few (which share their first answers).
        const step = Math.ceil(planned.length / WALKED);
        for (const path of planned.filter((_, index) => index % step === 0)) {
          const walked = await walkPath(tool, path, { answers });
          expect(walked.problem, path.title).to.equal(undefined);
          expect(JSON.stringify(walked.endedIn), path.title).to.equal(path.endsIn);
        }
      }),
      { numRuns: 15 },
    );
  });
});
