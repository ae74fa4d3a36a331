/**
 * Where Baton's spans and metrics go: the OpenTelemetry API only (docs/observability.md). The
 * host application registers an SDK (or `baton serve` does, from OTEL_* and BATON_METRICS_PORT:
 * settings/telemetry-sdk.ts); without one every call here is a no-op, and Baton checks that before it
 * builds a span or an attribute, so a request with telemetry off allocates nothing for it.
 */
import {
  createNoopMeter,
  metrics,
  trace,
  type MeterProvider,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import type { BatonMeter } from './aggregating-meter.js';
import { BatonMetrics } from './baton-metrics.js';
import { TargetLabels, type TargetCatalogue } from './target-labels.js';

/** The instrumentation scope every span and metric names (OpenTelemetry: tracer and meter name). */
export const INSTRUMENTATION_NAME = 'baton-mcp';

/** The OpenTelemetry providers Baton uses (default: the global ones) and how it names this instance. */
export interface TelemetryOptions {
  /** Default: the global tracer provider, read on each request so an SDK registered later counts. */
  tracerProvider?: TracerProvider;
  /**
   * Default: the global meter provider when the service is built. The metrics API has no
   * stand-in that follows a later registration: register the SDK before `createServer`.
   */
  meterProvider?: MeterProvider;
  /**
   * The meter Baton's instruments are made with, instead of the meter provider's: `baton serve`
   * gives its AggregatingMeter (aggregating-meter.ts), which its metric reader collects.
   */
  meter?: BatonMeter;
  /** Names this instance on every request span (`baton.instance.id`). */
  instanceId?: string;
  /** Baton's version, as the instrumentation scope's version. */
  version?: string;
  /**
   * Record nothing, whatever SDK the process registered: the docs' and the test kit's example runs
   * are no traffic, and must not show up in an operator's traces or request counts.
   */
  off?: boolean;
}

/** A global provider that is OpenTelemetry's stand-in: it hands out a real tracer only once an SDK is registered. */
interface DelegatingProvider {
  getDelegateTracer(name: string, version?: string): Tracer | undefined;
}

/** Baton's spans and metrics, through the OpenTelemetry API only: a no-op until an SDK is registered. */
export class Telemetry {
  readonly instanceId: string | undefined;
  /** Undefined when no meter provider is registered: nothing is recorded, nothing is built. */
  readonly metrics: BatonMetrics | undefined;
  /** The closed set of target names metrics and span names may carry (target-labels.ts). */
  readonly targets = new TargetLabels();
  readonly #version: string | undefined;
  readonly #tracerProvider: TracerProvider | undefined;
  readonly #off: boolean;
  #tracer: Tracer | undefined;

  constructor(options: TelemetryOptions = {}) {
    this.instanceId = options.instanceId;
    this.#version = options.version;
    this.#tracerProvider = options.tracerProvider;
    this.#off = options.off === true;
    if (this.#off) {
      this.metrics = undefined;
      return;
    }
    const meter =
      options.meter ??
      (options.meterProvider ?? metrics.getMeterProvider()).getMeter(INSTRUMENTATION_NAME, options.version);
    this.metrics = meter === createNoopMeter() ? undefined : new BatonMetrics(meter, this.targets);
  }

  /**
   * The tracer when spans are recorded somewhere, else undefined. With the global provider and no
   * SDK, OpenTelemetry's stand-in provider has no delegate: asking it allocates nothing.
   */
  tracer(): Tracer | undefined {
    if (this.#off) return undefined;
    if (this.#tracer) return this.#tracer;
    const provider = this.#tracerProvider ?? trace.getTracerProvider();
    const tracer =
      'getDelegateTracer' in provider
        ? (provider as DelegatingProvider).getDelegateTracer(INSTRUMENTATION_NAME, this.#version)
        : provider.getTracer(INSTRUMENTATION_NAME, this.#version);
    // Kept once found, as OpenTelemetry's own ProxyTracer keeps its delegate.
    if (tracer) this.#tracer = tracer;
    return tracer;
  }

  /** Names the catalogue: a target outside it is recorded as `unknown`. */
  useCatalogue(catalogue: TargetCatalogue): void {
    this.targets.useCatalogue(catalogue);
  }

  /** Whether a request needs a telemetry record at all. */
  get active(): boolean {
    return this.metrics !== undefined || this.tracer() !== undefined;
  }
}
