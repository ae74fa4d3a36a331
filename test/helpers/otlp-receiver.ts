/**
 * An OTLP/HTTP receiver in the test process (loopback): it keeps every body posted, by path, and
 * from what an OpenTelemetry exporter posts to /v1/traces as OTLP/JSON
 * (OTEL_EXPORTER_OTLP_PROTOCOL=http/json) the spans, flattened with the resource they came from.
 * Only what the tests read is modelled.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  arrayValue?: { values: OtlpValue[] };
};
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  events: Array<{ name: string; attributes: Record<string, unknown> }>;
  links: Array<{ traceId: string; spanId: string; attributes: Record<string, unknown> }>;
  status: { code?: number; message?: string };
  resource: Record<string, unknown>;
}

function valueOf(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return value.arrayValue.values.map(valueOf);
  return value;
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((attribute) => [attribute.key, valueOf(attribute.value)]));
}

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Every span batch as received (OTLP/JSON), for "nothing leaked" checks over the raw text. */
  readonly bodies: string[] = [];
  /** Every body posted, by path (`/v1/traces`, `/v1/metrics`), in whatever encoding it came. */
  readonly posted = new Map<string, Buffer[]>();
  #server: Server | undefined;

  async start(): Promise<string> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const path = req.url ?? '';
        this.posted.set(path, [...(this.posted.get(path) ?? []), body]);
        const json = String(req.headers['content-type']).includes('json');
        if (req.method === 'POST' && path === '/v1/traces' && json) this.#take(body.toString('utf8'));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }

  /** Waits until `found` holds for the spans received (exporters batch), or fails after `timeoutMs`. */
  async waitFor(found: (spans: ReceivedSpan[]) => boolean, timeoutMs = 15_000): Promise<ReceivedSpan[]> {
    const until = Date.now() + timeoutMs;
    while (!found(this.spans)) {
      if (Date.now() > until)
        throw new Error(`spans not received in time; got: ${this.spans.map((s) => s.name).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return this.spans;
  }

  #take(text: string): void {
    this.bodies.push(text);
    const body = JSON.parse(text) as {
      resourceSpans?: Array<{
        resource?: { attributes?: OtlpAttribute[] };
        scopeSpans?: Array<{ spans?: Array<Record<string, any>> }>;
      }>;
    };
    for (const resourceSpans of body.resourceSpans ?? []) {
      const resource = attributesOf(resourceSpans.resource?.attributes);
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            events: (span.events ?? []).map((event: any) => ({
              name: event.name,
              attributes: attributesOf(event.attributes),
            })),
            links: (span.links ?? []).map((link: any) => ({
              traceId: link.traceId,
              spanId: link.spanId,
              attributes: attributesOf(link.attributes),
            })),
            status: span.status ?? {},
            resource,
          });
        }
      }
    }
  }
}
