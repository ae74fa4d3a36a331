/**
 * Baton's metrics aggregated by Baton, for a metric reader to collect as an OpenTelemetry
 * `MetricProducer` (docs/observability.md, "Metrics"). Through the SDK's instruments every point
 * of a request hashes its attribute set to find its series (`hashAttributes`: the keys sorted,
 * then stringified), and the metrics were the larger part of what telemetry costs a request with
 * its spans sampled out (docs/benchmarks.md, "Telemetry"). Baton's attribute sets are frozen
 * objects made once per combination (attribute-sets.ts), so here a point finds its series by the
 * set's identity: one map lookup, then the bucket.
 *
 * It is a `Meter` for the instruments BatonMetrics makes, and it answers `collect()` with what
 * the SDK's own aggregation would: cumulative sums and explicit-bucket histograms (bucket upper
 * bounds inclusive, min, max and sum), the last value of each gauge, in the SDK's data model, so
 * the reader's exporter (Prometheus, OTLP) writes them as it writes the SDK's. A test holds the
 * two to the same data for any sequence of points (test/telemetry/aggregating-meter.test.ts).
 *
 * Only `baton serve` uses it, where it builds the metric reader itself (settings/telemetry-sdk.ts);
 * an application that registers its own SDK gets Baton's metrics through its instruments.
 */
import {
  ValueType,
  type Attributes,
  type Counter,
  type Histogram,
  type Meter,
  type MetricOptions,
  type ObservableCallback,
  type ObservableGauge,
  type ObservableResult,
  type UpDownCounter,
} from '@opentelemetry/api';

/** Seconds and nanoseconds, as OpenTelemetry's SDK writes a time. */
export type HrTime = [number, number];

/** What an instrument is, as the SDK describes it (`InstrumentDescriptor`). */
export interface AggregatedDescriptor {
  name: string;
  type: 'COUNTER' | 'UP_DOWN_COUNTER' | 'HISTOGRAM' | 'OBSERVABLE_GAUGE';
  description: string;
  unit: string;
  valueType: ValueType;
  advice: MetricOptions['advice'] & object;
}

export interface AggregatedPoint<V> {
  attributes: Attributes;
  startTime: HrTime;
  endTime: HrTime;
  value: V;
}

export interface HistogramValue {
  buckets: { boundaries: number[]; counts: number[] };
  sum: number | undefined;
  count: number;
  min: number | undefined;
  max: number | undefined;
}

/** One metric as the SDK's data model has it (`MetricData`): the SDK's numbers for its enums. */
export type AggregatedMetric =
  | {
      descriptor: AggregatedDescriptor;
      aggregationTemporality: typeof CUMULATIVE;
      dataPointType: typeof HISTOGRAM_POINTS;
      dataPoints: AggregatedPoint<HistogramValue>[];
    }
  | {
      descriptor: AggregatedDescriptor;
      aggregationTemporality: typeof CUMULATIVE;
      dataPointType: typeof SUM_POINTS;
      dataPoints: AggregatedPoint<number>[];
      isMonotonic: boolean;
    }
  | {
      descriptor: AggregatedDescriptor;
      aggregationTemporality: typeof CUMULATIVE;
      dataPointType: typeof GAUGE_POINTS;
      dataPoints: AggregatedPoint<number>[];
    };

/** The SDK's `CollectionResult`, less the resource: the reader keeps the SDK's own. */
export interface AggregatedCollection {
  resourceMetrics: {
    resource: unknown;
    scopeMetrics: Array<{ scope: { name: string; version?: string }; metrics: AggregatedMetric[] }>;
  };
  errors: unknown[];
}

// The SDK's values for AggregationTemporality.CUMULATIVE and DataPointType (sdk-metrics, MetricData).
const CUMULATIVE = 1;
const HISTOGRAM_POINTS = 0;
const GAUGE_POINTS = 2;
const SUM_POINTS = 3;

/** The SDK's default bucket boundaries, for a histogram given none. */
const DEFAULT_BOUNDARIES = [0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10000];
/** The series of a point recorded with no attributes. */
const NO_ATTRIBUTES: Attributes = Object.freeze({});

function now(): HrTime {
  const millis = performance.timeOrigin + performance.now();
  const seconds = Math.trunc(millis / 1000);
  return [seconds, Math.round((millis - seconds * 1000) * 1e6)];
}

function descriptorOf(name: string, type: AggregatedDescriptor['type'], options?: MetricOptions): AggregatedDescriptor {
  return {
    name,
    type,
    description: options?.description ?? '',
    unit: options?.unit ?? '',
    valueType: options?.valueType ?? ValueType.DOUBLE,
    advice: options?.advice ?? {},
  };
}

/** Series an instrument keeps at most, as the SDK's default cardinality limit; then one overflow series. */
const SERIES_LIMIT = 2000;
/** Where the points beyond the limit go (OpenTelemetry's overflow attribute). */
const OVERFLOW: Attributes = Object.freeze({ 'otel.metric.overflow': true });

/**
 * Series by attribute set. Baton's sets are frozen and made once, so identity finds them; a set
 * made per call is found by its content, so it cannot add a series a call. Identities are kept for
 * a bounded number of sets: frozen sets made per call would otherwise grow the map for ever.
 */
class SeriesMap<S> {
  readonly #make: () => S;
  readonly #byIdentity = new Map<Attributes, S>();
  readonly #byContent = new Map<string, S>();
  readonly #points: Array<[Attributes, S]> = [];

  constructor(make: () => S) {
    this.#make = make;
  }

  get(attributes: Attributes | undefined): S {
    const set = attributes ?? NO_ATTRIBUTES;
    const known = this.#byIdentity.get(set);
    if (known !== undefined) return known;
    const series = this.#byContentOrNew(set);
    if (Object.isFrozen(set) && this.#byIdentity.size < 2 * SERIES_LIMIT) this.#byIdentity.set(set, series);
    return series;
  }

  entries(): ReadonlyArray<[Attributes, S]> {
    return this.#points;
  }

  #byContentOrNew(set: Attributes): S {
    const key = contentKey(set);
    let series = this.#byContent.get(key);
    if (series !== undefined) return series;
    if (this.#points.length >= SERIES_LIMIT - 1 && set !== OVERFLOW) return this.#byContentOrNew(OVERFLOW);
    series = this.#make();
    this.#byContent.set(key, series);
    this.#points.push([{ ...set }, series]);
    return series;
  }
}

/** A set's content as text, its names in order (how the SDK tells sets apart: hashAttributes). */
function contentKey(set: Attributes): string {
  return JSON.stringify(
    Object.keys(set)
      .sort()
      .map((name) => [name, set[name]]),
  );
}

interface HistogramSeries {
  startTime: HrTime;
  counts: number[];
  sum: number;
  count: number;
  min: number;
  max: number;
}

interface SumSeries {
  startTime: HrTime;
  value: number;
}

/** Each series as a point of the SDK's data model, from its first point until `endTime`. */
function pointsOf<S extends { startTime: HrTime }, V>(
  series: ReadonlyArray<[Attributes, S]>,
  endTime: HrTime,
  valueOf: (series: S) => V,
): AggregatedPoint<V>[] {
  return series.map(([attributes, one]) => ({ attributes, startTime: one.startTime, endTime, value: valueOf(one) }));
}

/** An instrument this meter aggregates: what it has, as of now. */
interface Aggregate {
  collect(endTime: HrTime): Promise<AggregatedMetric | undefined>;
}

/**
 * A value as the SDK's instruments take it: a number, its fraction dropped for an INT instrument
 * (a value left without a whole part, such as Infinity, is dropped); NaN is dropped too.
 */
function accepted(value: number, descriptor: AggregatedDescriptor): number | undefined {
  if (typeof value !== 'number' || Number.isNaN(value)) return undefined;
  if (descriptor.valueType !== ValueType.INT || Number.isInteger(value)) return value;
  const whole = Math.trunc(value);
  return Number.isInteger(whole) ? whole : undefined;
}

class AggregatedHistogram implements Histogram, Aggregate {
  readonly #descriptor: AggregatedDescriptor;
  readonly #boundaries: number[];
  readonly #series: SeriesMap<HistogramSeries>;

  constructor(descriptor: AggregatedDescriptor) {
    this.#descriptor = descriptor;
    const boundaries = [...(descriptor.advice.explicitBucketBoundaries ?? DEFAULT_BOUNDARIES)];
    this.#boundaries = boundaries;
    this.#series = new SeriesMap(() => ({
      startTime: now(),
      counts: new Array<number>(boundaries.length + 1).fill(0),
      sum: 0,
      count: 0,
      min: Infinity,
      max: -Infinity,
    }));
  }

  record(value: number, attributes?: Attributes): void {
    const recorded = accepted(value, this.#descriptor);
    // A histogram takes no negative value: the SDK drops one, with a warning.
    if (recorded === undefined || recorded < 0) return;
    const series = this.#series.get(attributes);
    series.count += 1;
    series.sum += recorded;
    if (recorded < series.min) series.min = recorded;
    if (recorded > series.max) series.max = recorded;
    // A bucket holds the values up to and including its upper bound (the SDK's binarySearchUB).
    const boundaries = this.#boundaries;
    let bucket = 0;
    while (bucket < boundaries.length && recorded > boundaries[bucket]!) bucket++;
    series.counts[bucket]! += 1;
  }

  async collect(endTime: HrTime): Promise<AggregatedMetric | undefined> {
    const points = this.#series.entries();
    if (points.length === 0) return undefined;
    return {
      descriptor: this.#descriptor,
      aggregationTemporality: CUMULATIVE,
      dataPointType: HISTOGRAM_POINTS,
      dataPoints: pointsOf(points, endTime, (series) => ({
        buckets: { boundaries: [...this.#boundaries], counts: [...series.counts] },
        sum: series.sum,
        count: series.count,
        min: series.min,
        max: series.max,
      })),
    };
  }
}

class AggregatedSum implements Counter, UpDownCounter, Aggregate {
  readonly #descriptor: AggregatedDescriptor;
  readonly #series = new SeriesMap<SumSeries>(() => ({ startTime: now(), value: 0 }));

  constructor(descriptor: AggregatedDescriptor) {
    this.#descriptor = descriptor;
  }

  get #monotonic(): boolean {
    return this.#descriptor.type === 'COUNTER';
  }

  add(value: number, attributes?: Attributes): void {
    const added = accepted(value, this.#descriptor);
    // A counter only counts up: the SDK drops a negative value, with a warning.
    if (added === undefined || (this.#monotonic && added < 0)) return;
    this.#series.get(attributes).value += added;
  }

  async collect(endTime: HrTime): Promise<AggregatedMetric | undefined> {
    const points = this.#series.entries();
    if (points.length === 0) return undefined;
    return {
      descriptor: this.#descriptor,
      aggregationTemporality: CUMULATIVE,
      dataPointType: SUM_POINTS,
      dataPoints: pointsOf(points, endTime, (series) => series.value),
      isMonotonic: this.#monotonic,
    };
  }
}

class AggregatedGauge implements ObservableGauge, Aggregate {
  readonly #descriptor: AggregatedDescriptor;
  readonly #callbacks = new Set<ObservableCallback>();

  constructor(descriptor: AggregatedDescriptor) {
    this.#descriptor = descriptor;
  }

  addCallback(callback: ObservableCallback): void {
    this.#callbacks.add(callback);
  }

  removeCallback(callback: ObservableCallback): void {
    this.#callbacks.delete(callback);
  }

  /** Each callback observes now; the last value of each series is the point (as the SDK's gauges). */
  async collect(endTime: HrTime): Promise<AggregatedMetric | undefined> {
    // A gauge's point is of the moment it was observed: it starts where it ends.
    const series = new SeriesMap<{ startTime: HrTime; value: number }>(() => ({ startTime: endTime, value: 0 }));
    const result: ObservableResult = {
      observe: (value, attributes) => {
        const observed = accepted(value, this.#descriptor);
        if (observed !== undefined) series.get(attributes).value = observed;
      },
    };
    await Promise.all([...this.#callbacks].map(async (callback) => callback(result)));
    const points = series.entries();
    if (points.length === 0) return undefined;
    return {
      descriptor: this.#descriptor,
      aggregationTemporality: CUMULATIVE,
      dataPointType: GAUGE_POINTS,
      dataPoints: pointsOf(points, endTime, (series) => series.value),
    };
  }
}

/** The part of OpenTelemetry's `Meter` Baton's instruments use (baton-metrics.ts). */
export type BatonMeter = Pick<
  Meter,
  'createHistogram' | 'createCounter' | 'createUpDownCounter' | 'createObservableGauge'
>;

export class AggregatingMeter implements BatonMeter {
  readonly #scope: { name: string; version?: string };
  readonly #instruments = new Map<string, Aggregate>();

  constructor(name: string, version?: string) {
    this.#scope = version === undefined ? { name } : { name, version };
  }

  createHistogram(name: string, options?: MetricOptions): Histogram {
    return this.#instrument(name, AggregatedHistogram, () => descriptorOf(name, 'HISTOGRAM', options));
  }

  createCounter(name: string, options?: MetricOptions): Counter {
    return this.#instrument(name, AggregatedSum, () => descriptorOf(name, 'COUNTER', options));
  }

  createUpDownCounter(name: string, options?: MetricOptions): UpDownCounter {
    return this.#instrument(name, AggregatedSum, () => descriptorOf(name, 'UP_DOWN_COUNTER', options));
  }

  createObservableGauge(name: string, options?: MetricOptions): ObservableGauge {
    return this.#instrument(name, AggregatedGauge, () => descriptorOf(name, 'OBSERVABLE_GAUGE', options));
  }

  /** What a metric reader asks of a `MetricProducer`: every instrument's points, as of now. */
  async collect(): Promise<AggregatedCollection> {
    const endTime = now();
    const metrics = await Promise.all([...this.#instruments.values()].map((instrument) => instrument.collect(endTime)));
    return {
      resourceMetrics: {
        resource: undefined,
        scopeMetrics: [{ scope: this.#scope, metrics: metrics.filter((metric) => metric !== undefined) }],
      },
      errors: [],
    };
  }

  /** One instrument a name: asking again for a name hands back the first, as the SDK does. */
  #instrument<T extends Aggregate>(
    name: string,
    kind: new (descriptor: AggregatedDescriptor) => T,
    describe: () => AggregatedDescriptor,
  ): T {
    const known = this.#instruments.get(name);
    if (known instanceof kind) return known;
    // Baton makes each of its instruments once, of one kind: another kind under a name is a bug.
    if (known !== undefined) throw new Error(`metric ${name} is already an instrument of another kind`);
    const made = new kind(describe());
    this.#instruments.set(name, made);
    return made;
  }
}
