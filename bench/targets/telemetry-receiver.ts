/**
 * What a production collector does to a Baton exporting its telemetry, for
 * `bench:compare -- --otlp`: an OTLP/HTTP receiver on loopback that takes every batch the SDK posts
 * (read to the end, answered 200), and a Prometheus scrape of the target's metrics endpoint each
 * second. It runs in the bench's own process, on the load generator's core, so what it costs is not
 * counted as the server's; what the server spends exporting (serializing batches, posting them,
 * answering the scrape) is.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TelemetryReceiver {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT: the SDK appends /v1/traces and /v1/metrics. */
  url: string;
  /** Batches and bytes received so far, to show the exporter really posted. */
  received(): { batches: number; bytes: number };
  /** Scrapes `metricsUrl` each second until the returned function is called. */
  scrape(metricsUrl: string): () => void;
  close(): Promise<void>;
}

export async function startTelemetryReceiver(): Promise<TelemetryReceiver> {
  let batches = 0;
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      batches++;
      // An empty ExportTraceServiceResponse, in either encoding the exporter may have used.
      const json = String(req.headers['content-type']).includes('json');
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      res.end(json ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => ({ batches, bytes }),
    scrape(metricsUrl) {
      const timer = setInterval(() => {
        // A scrape that fails (the target stopping) is only a missed scrape.
        const get = request(metricsUrl, (res) => res.resume());
        get.on('error', () => {});
        get.end();
      }, 1000);
      return () => clearInterval(timer);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
