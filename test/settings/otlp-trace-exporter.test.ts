/**
 * The span exporter `baton serve` hands the SDK (server/settings/otlp-trace-exporter.ts): taken
 * only when OTEL_* asks for the SDK's default (one OTLP exporter, HTTP with protobuf), built from
 * the same variables as the SDK's own, and posting what the SDK's own would post, byte for byte,
 * to a receiver on loopback. Anything else, or its packages missing, leaves the SDK to choose.
 */
import { expect } from 'chai';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import {
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { otlpTraceExporter } from '../../server/index.js';
import { protobufOtlpAsked, protobufOtlpExporter } from '../../server/settings/otlp-trace-exporter.js';
import { startTelemetrySdk, type Importer } from '../../server/settings/telemetry-sdk.js';

const realImport: Importer = (name) => import(name);

describe('the OTLP span exporter baton serve gives the SDK', () => {
  it('is taken only for one OTLP exporter over HTTP with protobuf', () => {
    for (const env of [
      {},
      { OTEL_TRACES_EXPORTER: 'otlp' },
      { OTEL_TRACES_EXPORTER: ' otlp , otlp' },
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' },
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' },
    ]) {
      expect(protobufOtlpAsked(env), JSON.stringify(env)).to.equal(true);
    }
    for (const env of [
      { OTEL_TRACES_EXPORTER: 'console' },
      { OTEL_TRACES_EXPORTER: 'otlp,console' },
      { OTEL_TRACES_EXPORTER: 'none' },
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
      { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' },
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' },
    ]) {
      expect(protobufOtlpAsked(env), JSON.stringify(env)).to.equal(false);
    }
  });

  describe('posting to a receiver', () => {
    const posts: { url: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
    let server: Server;
    const saved = { ...process.env };

    before(async () => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          posts.push({ url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
          // An ExportTraceServiceResponse with nothing to say: zero bytes of protobuf.
          res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      // The exporter reads OTEL_* from the process, as the SDK's does.
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${port}`;
      process.env.OTEL_EXPORTER_OTLP_HEADERS = 'x-collector-token=abc123';
    });

    after(async () => {
      for (const name of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_HEADERS']) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    /** Spans through `exporter` and an in-memory one side by side: what the SDK serializer makes of them. */
    async function exportThrough(exporter: Awaited<ReturnType<typeof otlpTraceExporter>>): Promise<Buffer> {
      const kept = new InMemorySpanExporter();
      const provider = new TracerProvider({
        spanProcessors: [
          new BatchSpanProcessor({ exporter, scheduledDelayMillis: 10 }),
          new SimpleSpanProcessor({ exporter: kept }),
        ],
      });
      const tracer = provider.getTracer('baton', '1.2.3');
      for (let index = 0; index < 20; index++) {
        const span = tracer.startSpan('tools/call order-pizza', {
          kind: 1,
          attributes: { 'mcp.method.name': 'tools/call', 'jsonrpc.request.id': String(index) },
        });
        span.addEvent('baton.request_state.sealed', { 'baton.request_state.size': 600 + index });
        span.end();
      }
      await provider.forceFlush();
      // Read before shutdown: the in-memory exporter forgets its spans when shut down.
      const spans = kept.getFinishedSpans();
      await provider.shutdown();
      expect(spans).to.have.length(20);
      return Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
    }

    it('posts what the SDK exporter would, to the endpoint OTEL_* names, with its headers', async () => {
      posts.length = 0;
      const exporter = await protobufOtlpExporter(process.env, realImport);
      expect(exporter).to.not.equal(undefined);
      const expected = await exportThrough(exporter!);
      expect(posts).to.have.length(1);
      const [post] = posts;
      expect(post!.url).to.equal('/v1/traces');
      expect(post!.headers['content-type']).to.equal('application/x-protobuf');
      expect(post!.headers['x-collector-token']).to.equal('abc123');
      expect(post!.body.equals(expected)).to.equal(true);
    });

    it("gives an application's own SDK the same exporter, with the options the SDK's takes", async () => {
      posts.length = 0;
      const url = `${process.env.OTEL_EXPORTER_OTLP_ENDPOINT}/collector/traces`;
      const exporter = await otlpTraceExporter({ url, headers: { 'x-tenant': 'blue' } });
      const expected = await exportThrough(exporter);
      expect(posts).to.have.length(1);
      expect(posts[0]!.url).to.equal('/collector/traces');
      expect(posts[0]!.headers['x-tenant']).to.equal('blue');
      expect(posts[0]!.body.equals(expected)).to.equal(true);
    });
  });

  describe('in the SDK baton serve starts', () => {
    /** The options Baton gives NodeSDK, with everything else loaded for real (or missing). */
    async function optionsGiven(env: NodeJS.ProcessEnv, missing: string[] = []): Promise<Record<string, unknown>> {
      let given: Record<string, unknown> | undefined;
      const importer: Importer = async (name) => {
        if (name === '@opentelemetry/sdk-node') {
          return {
            NodeSDK: class {
              constructor(options: Record<string, unknown>) {
                given = options;
              }
              start() {}
              shutdown() {
                return Promise.resolve();
              }
            },
          };
        }
        if (missing.includes(name)) {
          throw Object.assign(new Error(`Cannot find package '${name}'`), { code: 'ERR_MODULE_NOT_FOUND' });
        }
        return realImport(name);
      };
      const sdk = await startTelemetrySdk({ traces: true }, env, importer);
      await sdk!.shutdown();
      return given!;
    }

    it("replaces the SDK's default exporter with this one, and nothing else", async () => {
      const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
      const taken = await optionsGiven(endpoint);
      expect(taken.traceExporter).to.have.property('export').that.is.a('function');
      expect(taken).to.not.have.property('spanProcessors');
      for (const other of [
        { ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
        { OTEL_TRACES_EXPORTER: 'console' },
        { OTEL_TRACES_EXPORTER: 'otlp,console', ...endpoint },
      ]) {
        const left = await optionsGiven(other);
        expect(left, JSON.stringify(other)).to.not.have.property('traceExporter');
        expect(left, JSON.stringify(other)).to.not.have.property('spanProcessors');
      }
    });

    it('leaves the SDK its own exporter when the OTLP packages cannot be loaded', async () => {
      const left = await optionsGiven({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }, [
        '@opentelemetry/otlp-exporter-base/node-http',
      ]);
      expect(left).to.not.have.property('traceExporter');
    });
  });
});
