/** Target 1: Baton itself (createServer, as production wires it), serving the bench tools. */
import { randomBytes } from 'node:crypto';
import { createServer } from '../../server/create-server.js';
import { FlowEngine, KeyRing, silentLogger } from '../../server/engine/index.js';
import { benchTools } from '../tools/index.js';
import type { StartedTarget } from './started-target.js';
import { requestWork } from './request-work.js';
import { registerNoopTelemetry } from './noop-telemetry.js';
import { startTelemetrySdk } from '../../server/settings/telemetry-sdk.js';

export async function startBaton(): Promise<StartedTarget> {
  // Every engine round, timed as it runs under load (request-work.ts); about 0.1 µs a request.
  requestWork.timeMethod(FlowEngine.prototype, 'run');
  // `bench:compare -- --telemetry`: this build with an SDK registered (before the server is built).
  // `bench:compare -- --otlp`: the SDK as `baton serve` starts it from OTEL_* (telemetry-sdk.ts),
  // exporting to the bench's receiver, its metrics served for the bench's scrape on
  // BENCH_METRICS_PORT, or pushed to the receiver over OTLP when that is empty (`--otlp-metrics`).
  const metricsPort = process.env.BENCH_METRICS_PORT ? Number(process.env.BENCH_METRICS_PORT) : undefined;
  const sdk =
    process.env.BENCH_TELEMETRY === 'sdk'
      ? await startTelemetrySdk({ traces: true, ...(metricsPort === undefined ? {} : { metricsPort }) })
      : undefined;
  if (!sdk && process.env.BENCH_TELEMETRY) registerNoopTelemetry(process.env.BENCH_TELEMETRY);
  const baton = createServer({
    tools: benchTools,
    keyRing: new KeyRing([{ id: 'bench', secret: new Uint8Array(randomBytes(32)) }]),
    logger: silentLogger,
    host: '127.0.0.1',
    // Baton's metrics aggregated by Baton for the SDK's reader, as `baton serve` wires it.
    ...(sdk?.meter ? { telemetry: { meter: sdk.meter } } : {}),
    // `bench:compare -- --console`: the console on, as `baton dev` has it (no auth: loopback operators).
    ...(process.env.BENCH_CONSOLE === '1' ? { console: { loopback: true } } : {}),
  });
  const { server, url } = await baton.listen(0, '127.0.0.1');
  return { url, server };
}
