/**
 * Baton's instruments (docs/observability.md, "Metrics"), made once per service. The MCP server
 * duration follows OpenTelemetry's semantic conventions for MCP; the rest are Baton's own, under
 * `baton.`. Attribute sets are built once per distinct combination and reused: every value comes
 * from a bounded set (method names the server serves, outcome words, and target names passed
 * through TargetLabels, the catalogue's closed set), so the caches stay small and nothing a client
 * sends becomes a label. Targets are labelled before the cache is keyed: a key made of a client's
 * text would grow the cache even when the label does not.
 */
import { ValueType, type Attributes, type Counter, type Histogram, type UpDownCounter } from '@opentelemetry/api';
import type { BatonMeter } from './aggregating-meter.js';
import { ATTR } from './attribute-names.js';
import { AttributeSets } from './attribute-sets.js';
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
  readonly #meter: BatonMeter;
  readonly #targets: TargetLabels;
  readonly #requestSets = new AttributeSets(
    (method: string, target: string | undefined, errorType: string | undefined): Attributes => ({
      [ATTR.method]: method,
      ...targetAttribute(method, target),
      ...(errorType === undefined ? {} : { [ATTR.errorType]: errorType }),
      ...(errorType === undefined || errorType === 'tool_error' ? {} : { [ATTR.rpcStatusCode]: errorType }),
    }),
  );
  /** A round's sets by its mode: a round inside a request, or a task's step. */
  readonly #roundSets = { request: roundSets('request'), step: roundSets('step') };
  readonly #startSets = new AttributeSets((method: string, target: string) => targetAttributes(method, target));
  readonly #endSets = new AttributeSets((method: string, target: string, how: FlowEnd): Attributes => ({
    ...targetAttributes(method, target),
    [ATTR.flowOutcome]: how,
  }));
  readonly #refusedSets = new AttributeSets((reason: RefusalReason) => ({ [ATTR.refusalReason]: reason }));
  readonly #taskSets = new AttributeSets((status: string, tool: string): Attributes => ({
    [ATTR.taskStatus]: status,
    [ATTR.toolName]: tool,
  }));

  constructor(meter: BatonMeter, targets: TargetLabels) {
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
    this.#operation.record(seconds, this.#requestSets.get(method, target, errorType));
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
    const attributes = this.#roundSets[mode].get(method, target, outcome, errorType);
    (mode === 'step' ? this.#step : this.#round).record(seconds, attributes);
  }

  flowStarted(method: string, name: string): void {
    const target = this.#targets.label(method, name);
    this.#flowStarted.add(1, this.#startSets.get(method, target));
  }

  flowEnded(method: string, name: string, how: FlowEnd): void {
    const target = this.#targets.label(method, name);
    this.#flowEnded.add(1, this.#endSets.get(method, target, how));
  }

  refused(reason: RefusalReason): void {
    this.#refused.add(1, this.#refusedSets.get(reason));
  }

  sealed(length: number): void {
    this.#stateSize.record(length);
  }

  taskStatus(status: string, name: string): void {
    const tool = this.#targets.label('tools/call', name);
    this.#taskStatus.add(1, this.#taskSets.get(status, tool));
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
}

/** The method and the target it ran: the parts every flow counter carries. */
function targetAttributes(method: string, target: string): Attributes {
  return { [ATTR.method]: method, ...targetAttribute(method, target) };
}

/** A round's attribute sets for one mode: the method, its target, the round's outcome and error. */
function roundSets(mode: 'request' | 'step') {
  return new AttributeSets(
    (method: string, target: string, outcome: string, errorType: string | undefined): Attributes => ({
      [ATTR.method]: method,
      ...targetAttribute(method, target),
      [ATTR.roundMode]: mode,
      [ATTR.roundOutcome]: outcome,
      ...(errorType === undefined ? {} : { [ATTR.errorType]: errorType }),
    }),
  );
}
