/**
 * `serve()` with BATON_METRICS_PORT records Baton's metrics into the AggregatingMeter it hands
 * the Prometheus reader (docs/observability.md, "Prometheus"). The scrape is the same whichever
 * way the points go (test/telemetry/aggregating-meter.test.ts), so this reads the meter itself,
 * in a process of its own (the SDK registers itself globally).
 */
import { expect } from 'chai';
import { freePort } from '../helpers/spawn-baton.js';
import { fixtureResult } from '../helpers/fixture-process.js';

describe('serve() with BATON_METRICS_PORT', function () {
  this.timeout(60_000);

  it("records the server's metrics into the meter its Prometheus reader collects", async () => {
    const held = await fixtureResult<Record<string, number>>('test/fixtures/serve-metrics-meter.ts', [
      String(await freePort()),
    ]);
    expect(held).to.include({
      'baton.flow.started': 1,
      'mcp.server.operation.duration': 1,
      'baton.round.duration': 1,
      'baton.request_state.size': 1,
    });
  });
});
