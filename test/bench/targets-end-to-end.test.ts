import type { Server } from 'node:http';
import { expect } from 'chai';
import { BENCH_FLOWS, requestsPerFlow } from '../../bench/flows/bench-flows.js';
import { runLoad } from '../../bench/load/load-generator.js';
import { startBaton } from '../../bench/targets/baton-target.js';
import { startFloor } from '../../bench/targets/floor-target.js';
import { startSdk } from '../../bench/targets/sdk-target.js';
import { requestWorkTotals } from '../../bench/targets/request-work.js';
import { ToolRegistry } from '../../server/engine/index.js';
import { benchTools } from '../../bench/tools/index.js';

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

describe('bench targets driven by the load generator', () => {
  it('registers the Baton bench tools (they pass the start-up checks)', () => {
    expect(() => new ToolRegistry(benchTools)).not.to.throw();
  });

  // Baton times each engine round and the floor its JSON work (request-work.ts): one per request.
  for (const [name, start, timesItsWork] of [
    ['Baton', startBaton, true],
    ['the SDK v2 comparison server', startSdk, false],
    ['the floor', startFloor, true],
  ] as const) {
    it(`completes every flow on ${name} without errors`, async () => {
      const target = await start();
      try {
        for (const flow of BENCH_FLOWS) {
          const before = requestWorkTotals();
          const result = await runLoad({
            url: target.url,
            flow,
            concurrency: 4,
            warmupMs: 0,
            durationMs: 0,
            maxFlows: 20,
          });
          expect(result.errors, `${flow.label}: ${result.errorSamples.join('; ')}`).to.equal(0);
          expect(result.flows).to.equal(20);
          expect(result.requests).to.be.at.least(20 * requestsPerFlow(flow));
          expect(result.stateSizes.maxByRound).to.have.length(flow.rounds.length);
          const timed = requestWorkTotals().count - before.count;
          if (timesItsWork) expect(timed).to.be.at.least(result.requests);
          else expect(timed).to.equal(0);
        }
      } finally {
        await close(target.server);
      }
    });
  }

  it('measures a duration-bounded window and stops by itself', async () => {
    const target = await startFloor();
    const marks: string[] = [];
    try {
      const result = await runLoad({
        url: target.url,
        flow: BENCH_FLOWS[1]!,
        concurrency: 8,
        warmupMs: 100,
        durationMs: 300,
        onWindowStart: () => {
          marks.push('start');
        },
        onWindowEnd: () => {
          marks.push('end');
        },
      });
      expect(marks).to.deep.equal(['start', 'end']);
      // Timed from the window's own start, so it lasts its duration however late it opened.
      expect(result.windowMs).to.be.at.least(299);
      expect(result.errors).to.equal(0);
      expect(result.flows).to.be.greaterThan(0);
      expect(result.requestLatencyMs.p99).to.be.at.least(result.requestLatencyMs.p50);
    } finally {
      await close(target.server);
    }
  });
});
