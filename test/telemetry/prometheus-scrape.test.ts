/**
 * Metrics for Prometheus (docs/observability.md): a real `baton serve` process with
 * BATON_METRICS_PORT set, and a real Prometheus server (Debian's package) scraping it every second
 * while flows run. Its query API then answers the flow counters: completed, declined and
 * cancelled flows, the refusal of a tampered requestState, and the rounds by outcome.
 */
import { expect } from 'chai';
import { generateKeyEntry } from '../../server/engine/index.js';
import { callTool, type RawResponse } from '../helpers/mcp-http.js';
import { startPrometheus, type RunningPrometheus } from '../helpers/prometheus-server.js';
import { PROMETHEUS, requireBinaries } from '../helpers/required-binary.js';
import { BatonFleet, freePort, type BatonInstance } from '../helpers/spawn-baton.js';

const ARGS = { service: 'billing', version: '2.4.0' };

describe('Prometheus scrapes BATON_METRICS_PORT', function () {
  this.timeout(90_000);

  const fleet = new BatonFleet();
  let baton: BatonInstance;
  let prometheus: RunningPrometheus | undefined;
  let metricsPort: number;

  before(async function () {
    requireBinaries(this, PROMETHEUS);
    metricsPort = await freePort();
    baton = await fleet.start({ keys: generateKeyEntry('k1'), env: { BATON_METRICS_PORT: String(metricsPort) } });
    prometheus = await startPrometheus([`127.0.0.1:${metricsPort}`]);
  });

  after(async () => {
    await prometheus?.stop();
    await fleet.stopAll();
  });

  /** Starts a release and answers its window question with `action`; returns the last response. */
  async function release(window: Record<string, unknown>): Promise<RawResponse> {
    const first = await callTool(baton.url, 'release', ARGS);
    const second = await callTool(baton.url, 'release', ARGS, {
      requestState: first.body.result.requestState,
      inputResponses: { window },
    });
    expect(second.body.error, second.text).to.equal(undefined);
    return second;
  }

  /** The value of one series of a query, once Prometheus has scraped it (it polls until it has). */
  async function sample(promql: string, labels: Record<string, string>, atLeast: number): Promise<number> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const series = await prometheus!.query(promql);
      const match = series.find((s) => Object.entries(labels).every(([k, v]) => s.metric[k] === v));
      const value = match ? Number(match.value[1]) : 0;
      if (value >= atLeast || Date.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  it('serves the flow counters, the refusals and the rounds to a real Prometheus', async () => {
    // Two releases that complete, one declined at the window, one cancelled there.
    for (let i = 0; i < 2; i++) {
      const asked = await release({ action: 'accept', content: { window: 'now' } });
      const [key] = Object.keys(asked.body.result.inputRequests);
      const done = await callTool(baton.url, 'release', ARGS, {
        requestState: asked.body.result.requestState,
        inputResponses: { [key!]: { action: 'accept', content: { confirm: true } } },
      });
      expect(done.body.result.structuredContent, done.text).to.include({ released: true });
    }
    await release({ action: 'decline' });
    await release({ action: 'cancel' });
    // A state whose seal was altered is refused; the client learns only "invalid".
    const first = await callTool(baton.url, 'release', ARGS);
    const token = first.body.result.requestState as string;
    const tampered = `${token.slice(0, -4)}${token.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    const refused = await callTool(baton.url, 'release', ARGS, { requestState: tampered, inputResponses: {} });
    expect(refused.body.error?.code).to.equal(-32602);

    const tool = { gen_ai_tool_name: 'release', job: 'baton' };
    expect(await sample('baton_flow_ended_total', { ...tool, baton_flow_outcome: 'completed' }, 2)).to.equal(2);
    expect(await sample('baton_flow_ended_total', { ...tool, baton_flow_outcome: 'declined' }, 1)).to.equal(1);
    expect(await sample('baton_flow_ended_total', { ...tool, baton_flow_outcome: 'cancelled' }, 1)).to.equal(1);
    expect(await sample('baton_flow_started_total', tool, 5)).to.equal(5);
    expect(await sample('baton_request_state_refused_total', { baton_refusal_reason: 'tampered' }, 1)).to.equal(1);
    expect(await sample('baton_round_duration_count', { ...tool, baton_round_outcome: 'input_required' }, 7)).to.equal(
      7,
    );
    expect(
      await sample('mcp_server_operation_duration_count', { mcp_method_name: 'tools/call', error_type: '-32602' }, 1),
    ).to.equal(1);
    // Scraped from this instance's metrics port, which answers nothing else.
    const up = await prometheus!.query('up{job="baton"}');
    expect(up.map((s) => [s.metric.instance, s.value[1]])).to.deep.equal([[`127.0.0.1:${metricsPort}`, '1']]);
    const other = await fetch(`http://127.0.0.1:${metricsPort}/mcp`);
    expect(other.status).to.equal(404);
  });
});
