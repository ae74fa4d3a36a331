/**
 * Telemetry on, exported nowhere: what `bench:compare -- --telemetry` measures (docs/benchmarks.md,
 * "Telemetry"). Registers OpenTelemetry's SDK globally as a host application would: the
 * async-hooks context manager, a tracer provider sampling every span into a batch processor whose
 * exporter drops the batch, and a meter provider whose reader is collected every second (as a
 * Prometheus scrape would be), so the cost measured is Baton's spans and metrics, not an exporter's.
 */
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';

class DroppingExporter implements SpanExporter {
  export(_spans: unknown[], done: (result: { code: number }) => void): void {
    done({ code: 0 });
  }
  async shutdown(): Promise<void> {}
}

class ScrapedReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

/**
 * `parts`: `all`, or a comma-separated choice of `context`, `traces`, `metrics` (BENCH_TELEMETRY),
 * to tell what each part costs.
 */
export function registerNoopTelemetry(parts: string): void {
  const on = (part: string) => parts === 'all' || parts.split(',').includes(part);
  if (on('context')) context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  if (on('traces')) {
    trace.setGlobalTracerProvider(
      new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: new DroppingExporter() })] }),
    );
  }
  if (on('metrics')) {
    const reader = new ScrapedReader();
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    setInterval(() => void reader.collect(), 1000).unref();
  }
}
