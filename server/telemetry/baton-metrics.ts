/**
 * Baton's instruments (docs/observability.md, "Metrics"), made once per service. The MCP server
 * duration follows OpenTelemetry's semantic conventions for MCP; the rest are Baton's own, under
 * `baton.`. Attribute sets are built once per distinct combination and reused: every value comes
 * from a bounded set (method names the server serves, outcome words, and target names passed
 * through TargetLabels, the catalogue's closed set), so the caches stay small and nothing a client
 * sends becomes a label. Targets are labelled before the cache is keyed: a key made of a client's
 * text would grow the cache even when the label does not.
 */
import {
  ValueType,
  type Attributes,
  type Counter,
  type Histogram,
  type Meter,
  type UpDownCounter,
} from '@opentelemetry/api';
import { ATTR } from './attribute-names.js';
import type { TargetLabels } from './target-labels.js';

/** OpenTelemetry's advice for MCP durations, in seconds (semconv, mcp.server.operation.duration). */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
/** Sealed states are at most 16 KiB by default; the examples seal to 400-700 characters. */
const SIZE_BUCKETS = [256, 512, 1024, 2048, 4096, 8192, 16384, 32768];

export type FlowEnd = 'completed' | 'declined' | 'cancelled' | 'failed';
export type RefusalReason =
  'tampered' | 'expired' | 'foreign_principal' | 'wrong_target' | 'wrong_arguments' | 'replayed' | 'in_use';

/** Reads what a callback-observed gauge shows: queue depth, timers pending, live sessions. */
export interface GaugeSource {
  (): number | Promise<number>;
}

/** Attribute sets by their parts, built on first use (parts are joined with a separator no name has). */
class AttributeCache {
  readonly #sets = new Map<string, Attributes>();

  get(key: string, build: () => Attributes): Attributes {
    let set = this.#sets.get(key);
    if (set === undefined) {
      set = Object.freeze(build());
      this.#sets.set(key, set);
    }
    return set;
  }
}

/** The attribute that names a target: a tool, a prompt, or (for other methods) nothing. */
export function targetAttribute(method: string, name: string | undefined): Attributes {
  if (name === undefined) return {};
  if (method === 'tools/call') return { [ATTR.toolName]: name };
  if (method === 'prompts/get') return { [ATTR.promptName]: name };
  return { [ATTR.targetName]: name };
}

export class BatonMetrics {
  readonly #operation: Histogram;
  readonly #round: Histogram;
  readonly #flowStarted: Counter;
  readonly #flowEnded: Counter;
  readonly #refused: Counter;
  readonly #stateSize: Histogram;
  readonly #taskStatus: Counter;
  readonly #step: Histogram;
  readonly #listen: UpDownCounter;
  readonly #meter: Meter;
  readonly #attributes = new AttributeCache();
  readonly #targets: TargetLabels;

  constructor(meter: Meter, targets: TargetLabels) {
    this.#meter = meter;
    this.#targets = targets;
    const seconds = { unit: 's', advice: { explicitBucketBoundaries: DURATION_BUCKETS } };
    this.#operation = meter.createHistogram('mcp.server.operation.duration', {
      ...seconds,
      description: 'MCP request duration as observed on the server, from receipt until the answer is ready.',
    });
    this.#round = meter.createHistogram('baton.round.duration', {
      ...seconds,
      description: 'One round of a machine: a round inside a request, or a step of a task.',
    });
    this.#flowStarted = meter.createCounter('baton.flow.started', {
      description: 'Flows started: a first call (no requestState) of a machine-backed tool, prompt or resource.',
      valueType: ValueType.INT,
    });
    this.#flowEnded = meter.createCounter('baton.flow.ended', {
      description: 'Flows that ended in a request, by how: completed, declined, cancelled or failed.',
      valueType: ValueType.INT,
    });
    this.#refused = meter.createCounter('baton.request_state.refused', {
      description: 'Presented requestStates refused, by reason (the client only ever learns "invalid").',
      valueType: ValueType.INT,
    });
    this.#stateSize = meter.createHistogram('baton.request_state.size', {
      unit: 'By',
      advice: { explicitBucketBoundaries: SIZE_BUCKETS },
      description: 'Length of each requestState sealed, in characters (bytes: it is base64url).',
      valueType: ValueType.INT,
    });
    this.#taskStatus = meter.createCounter('baton.task.status_changes', {
      description: 'Tasks entering a status: working (created), input_required, completed, cancelled, failed.',
      valueType: ValueType.INT,
    });
    this.#step = meter.createHistogram('baton.task.step.duration', {
      ...seconds,
      description: 'One step of a task on a worker.',
    });
    this.#listen = meter.createUpDownCounter('baton.listen.streams', {
      description: 'subscriptions/listen streams open on this instance.',
      valueType: ValueType.INT,
    });
  }

  /** One MCP request answered (or refused): `errorType` is its JSON-RPC code, or `tool_error`. */
  request(seconds: number, method: string, name: string | undefined, errorType: string | undefined): void {
    const target = name === undefined ? undefined : this.#targets.label(method, name);
    const key = `${method}\u0000${target ?? ''}\u0000${errorType ?? ''}`;
    const attributes = this.#attributes.get(key, () => ({
      [ATTR.method]: method,
      ...targetAttribute(method, target),
      ...(errorType === undefined ? {} : { [ATTR.errorType]: errorType }),
      ...(errorType === undefined || errorType === 'tool_error' ? {} : { [ATTR.rpcStatusCode]: errorType }),
    }));
    this.#operation.record(seconds, attributes);
  }

  /** One round ended: `outcome` is the round's (complete, input_required, …), `errorType` its reason. */
  round(
    seconds: number,
    mode: 'request' | 'step',
    method: string,
    name: string,
    outcome: string,
    errorType: string | undefined,
  ): void {
    const target = this.#targets.label(method, name);
    const key = `${mode}\u0000${method}\u0000${target}\u0000${outcome}\u0000${errorType ?? ''}`;
    const attributes = this.#attributes.get(key, () => ({
      [ATTR.method]: method,
      ...targetAttribute(method, target),
      [ATTR.roundMode]: mode,
      [ATTR.roundOutcome]: outcome,
      ...(errorType === undefined ? {} : { [ATTR.errorType]: errorType }),
    }));
    (mode === 'step' ? this.#step : this.#round).record(seconds, attributes);
  }

  flowStarted(method: string, name: string): void {
    const target = this.#targets.label(method, name);
    this.#flowStarted.add(
      1,
      this.#attributes.get(`start\u0000${method}\u0000${target}`, () => this.#target(method, target)),
    );
  }

  flowEnded(method: string, name: string, how: FlowEnd): void {
    const target = this.#targets.label(method, name);
    const attributes = this.#attributes.get(`end\u0000${method}\u0000${target}\u0000${how}`, () => ({
      ...this.#target(method, target),
      [ATTR.flowOutcome]: how,
    }));
    this.#flowEnded.add(1, attributes);
  }

  refused(reason: RefusalReason): void {
    this.#refused.add(
      1,
      this.#attributes.get(`refused\u0000${reason}`, () => ({ [ATTR.refusalReason]: reason })),
    );
  }

  sealed(length: number): void {
    this.#stateSize.record(length);
  }

  taskStatus(status: string, name: string): void {
    const tool = this.#targets.label('tools/call', name);
    const attributes = this.#attributes.get(`task\u0000${status}\u0000${tool}`, () => ({
      [ATTR.taskStatus]: status,
      [ATTR.toolName]: tool,
    }));
    this.#taskStatus.add(1, attributes);
  }

  listenStream(delta: 1 | -1): void {
    this.#listen.add(delta);
  }

  /**
   * Gauges read when the metrics are collected: the task queue (jobs waiting to run, timers
   * pending) and the 2025-11-25 sessions this instance holds.
   */
  observe(gauges: { queueDepth?: GaugeSource; timersPending?: GaugeSource; legacySessions?: GaugeSource }): void {
    const gauge = (name: string, description: string, source: GaugeSource | undefined) => {
      if (!source) return;
      this.#meter
        .createObservableGauge(name, { description, valueType: ValueType.INT })
        .addCallback(async (result) => result.observe(await source()));
    };
    gauge('baton.task.queue.depth', 'Task steps queued and not yet running.', gauges.queueDepth);
    gauge('baton.task.timers.pending', 'Durable task timers waiting to come due (delayed jobs).', gauges.timersPending);
    gauge('baton.legacy.sessions', '2025-11-25 sessions this instance holds.', gauges.legacySessions);
  }

  #target(method: string, target: string): Attributes {
    return { [ATTR.method]: method, ...targetAttribute(method, target) };
  }
}
