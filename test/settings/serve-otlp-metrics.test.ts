/**
 * `serve()` with traces on and metrics left at OTEL_METRICS_EXPORTER's default (otlp) sends Baton's
 * metrics through its own AggregatingMeter to the OTLP receiver, over HTTP with protobuf, as the
 * SDK's default reader would (server/settings/otlp-metric-reader.ts); with another temporality it
 * leaves them to the SDK's instruments, and they still arrive. In a process of its own: the SDK
 * registers itself globally.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';

/** An OTLP/HTTP receiver on loopback: the bodies posted to each path. */
async function startReceiver(): Promise<{ url: string; bodies: Map<string, Buffer[]>; server: Server }> {
  const bodies = new Map<string, Buffer[]>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      bodies.set(path, [...(bodies.get(path) ?? []), Buffer.concat(chunks)]);
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, server };
}

async function runServe(env: NodeJS.ProcessEnv): Promise<Record<string, number>> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/serve-otlp-metrics.ts'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code, stderr).to.equal(0);
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, number>;
}

describe('serve() with metrics over OTLP', function () {
  this.timeout(60_000);
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => {
    receiver.server.closeAllConnections();
    await new Promise((resolve) => receiver.server.close(resolve));
  });

  const exported = () => Buffer.concat(receiver.bodies.get('/v1/metrics') ?? []).toString('latin1');

  it("sends Baton's metrics from its own meter to the receiver", async () => {
    const held = await runServe({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    expect(held).to.include({ 'baton.flow.started': 1, 'baton.round.duration': 1 });
    // Protobuf holds names as plain bytes: the flush on shutdown posted them.
    expect(exported()).to.include('baton.flow.started').and.include('baton.round.duration');
    expect(receiver.bodies.get('/v1/traces')?.length ?? 0).to.be.greaterThan(0);
  });

  it("leaves delta temporality to the SDK's instruments, which send the same metrics", async () => {
    const held = await runServe({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE: 'delta',
    });
    expect(held).to.deep.equal({});
    expect(exported()).to.include('baton.flow.started').and.include('baton.round.duration');
  });
});
