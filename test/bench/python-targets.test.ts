import { expect } from 'chai';
import { BENCH_FLOWS, requestsPerFlow } from '../../bench/flows/bench-flows.js';
import { runLoad } from '../../bench/load/load-generator.js';
import { preparePythonEnv, type PythonEnv } from '../../bench/targets/python-env.js';
import { TARGETS } from '../../bench/targets/target-catalogue.js';
import { spawnTarget } from '../../bench/targets/target-handle.js';

describe('bench Python targets driven by the load generator', function () {
  // The first run makes the virtual environment (bench/targets/python-env.ts), about half a minute.
  this.timeout(300_000);
  let env: PythonEnv;

  before(function () {
    env = preparePythonEnv();
    // As `npm run bench` does: without Python or its packages, these targets are left out.
    if ('skipped' in env) this.skip();
  });

  for (const kind of ['python-sdk', 'fastmcp'] as const) {
    it(`completes every flow on ${TARGETS[kind].name} without errors, its CPU read from /proc`, async () => {
      if ('skipped' in env) return;
      const target = await spawnTarget(kind, { python: env.python });
      try {
        const before = await target.usage();
        for (const flow of BENCH_FLOWS) {
          const result = await runLoad({
            url: target.url,
            flow,
            concurrency: 4,
            warmupMs: 0,
            durationMs: 0,
            maxFlows: 20,
            // A target that answers wrongly never completes a flow: stop, and fail on its errors.
            maxDurationMs: 20_000,
            questionKeys: TARGETS[kind].questionKeys,
          });
          expect(result.errors, `${flow.label}: ${result.errorSamples.join('; ')}`).to.equal(0);
          expect(result.flows).to.equal(20);
          expect(result.requests).to.be.at.least(20 * requestsPerFlow(flow));
          expect(result.stateSizes.maxByRound).to.have.length(flow.rounds.length);
        }
        const after = await target.usage();
        expect(after.cpu.user + after.cpu.system).to.be.greaterThan(before.cpu.user + before.cpu.system);
        expect(after.rss).to.be.greaterThan(0);
      } finally {
        await target.stop();
      }
    });
  }

  it('names the keys as the catalogue says: its own for FastMCP, the resolvers for the Python SDK', async () => {
    if ('skipped' in env) return;
    const target = await spawnTarget('python-sdk', { python: env.python });
    try {
      const strict = await runLoad({
        url: target.url,
        flow: BENCH_FLOWS[0]!,
        concurrency: 1,
        warmupMs: 0,
        durationMs: 0,
        maxFlows: 1,
        maxDurationMs: 1500,
        questionKeys: 'flow',
      });
      expect(strict.errors).to.be.greaterThan(0);
      expect(strict.errorSamples.join(' ')).to.match(/round 1 asked \["__main__:ask_name"\]/);
    } finally {
      await target.stop();
    }
  });
});
