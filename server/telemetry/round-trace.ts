/**
 * One round of a machine in a trace, and as a point of `baton.round.duration` (or
 * `baton.task.step.duration` for a task's step) (docs/observability.md, "Traces").
 *
 * A request runs at most one round, so a round inside a request is recorded on the request's own
 * span: its attributes, its events (opening and sealing the state) and its link to the round that
 * sealed the state it continues. A span of its own would repeat the request's, and spans are what
 * telemetry costs: each one is built, batched, serialized and shipped (docs/benchmarks.md,
 * "Telemetry"). A task's step has no request: it is a span of its own (INTERNAL,
 * `baton.round {target}`), starting a trace of its own linked to the call that created the task;
 * so is a 2025-11-25 request's round, which has no request span.
 *
 * The machine runs inside the round's context (`run`), so spans the tool's own effects make
 * (an HTTP call from an invoked promise, with the host's instrumentation) are the round's
 * children, and Baton's log lines carry its trace and span ids (traced-logger.ts).
 */
import { context, isSpanContextValid, SpanKind, SpanStatusCode, trace, type Link, type Span } from '@opentelemetry/api';
import { ATTR } from './attribute-names.js';
import { targetAttribute, type FlowEnd } from './baton-metrics.js';
import type { RequestTelemetry } from './request-telemetry.js';
import type { Telemetry } from './telemetry.js';
import { decodeFlowContext, encodeFlowContext, type FlowTraceContext } from './trace-context.js';

export interface RoundStart {
  mode: 'request' | 'step';
  method: string;
  /** The catalogue's name: a tool's or prompt's name, a resource's registered URI or template. */
  target: string;
  /** The request this round runs in (mode `request`). */
  request?: RequestTelemetry | undefined;
  /** The task this step advances, and the context sealed when the task was created (mode `step`). */
  taskId?: string;
  createdBy?: string | undefined;
}

/** How a round ended, in words the telemetry keeps (never content). */
export interface RoundEnd {
  /** complete, input_required, failed, refused, handover, sleeping, aborted. */
  outcome: string;
  /** Why it failed or was refused: the failure's reason or the engine error's. */
  errorType?: string | undefined;
  /** The question keys asked (the author's names) and the states asking, when it waits. */
  questionKeys?: readonly string[] | undefined;
  waitingStates?: (() => readonly string[]) | undefined;
  /** When the flow ended with this round (a request), how. */
  flowEnd?: FlowEnd | undefined;
}

export class RoundTrace {
  readonly #telemetry: Telemetry;
  readonly #start: RoundStart;
  readonly #t0 = performance.now();
  readonly #startTime = performance.timeOrigin + this.#t0;
  #flow: FlowTraceContext | undefined;
  #opened: { size: number; round: number } | undefined;
  #span: Span | undefined;

  private constructor(telemetry: Telemetry, start: RoundStart) {
    this.#telemetry = telemetry;
    this.#start = start;
  }

  /** A record of one round, or undefined when telemetry is off. */
  static begin(telemetry: Telemetry | undefined, start: RoundStart): RoundTrace | undefined {
    if (!telemetry || (!start.request && !telemetry.active)) return undefined;
    // Span names and labels come from the catalogue's closed set, never from a client's text.
    const target = telemetry.targets.label(start.method, start.target);
    // The request now runs a target of the catalogue: its span and metrics may name it.
    if (start.request) start.request.target = target;
    return new RoundTrace(telemetry, target === start.target ? start : { ...start, target });
  }

  /** The presented state opened: its sealed trace context (claim 11), its length and round number. */
  opened(sealedContext: string | undefined, size: number, round: number): void {
    this.#flow = decodeFlowContext(sealedContext);
    this.#opened = { size, round };
  }

  /** A check refused the presented state. */
  refused(reason: string): void {
    if (this.#start.request) this.#start.request.refused(reason);
    else this.#telemetry.metrics?.refused(reason as never);
  }

  /** `trace_id` and `span_id` of the request's span, for a log line written outside any span. */
  requestLogFields(): { trace_id: string; span_id: string } | undefined {
    const span = this.#start.request?.span(this.#flow);
    if (!span?.isRecording()) return undefined;
    const { traceId, spanId } = span.spanContext();
    return { trace_id: traceId, span_id: spanId };
  }

  /** Runs the round (the kernel) inside its span's context; starts the span. */
  run<T>(round: () => T): T {
    const span = this.#startSpan();
    return span ? context.with(trace.setSpan(context.active(), span), round) : round();
  }

  /**
   * What to seal with the next state: this flow's trace and this round, or undefined when there is
   * no trace (no tracer, or tracing suppressed). A round sampled out seals its context too, with
   * the sampled flag off: the next round is then the child of an unsampled parent, and a
   * parent-based sampler drops it as well. Sealing nothing would make each later round a root of
   * its own, sampled afresh: a flow recorded from its second round on, without its first, and
   * more flows recorded than the ratio asks (a three-round flow at 10 % would be recorded 27 % of
   * the time).
   */
  sealContext(): string | undefined {
    const request = this.#start.request;
    const span = request ? request.span(this.#flow) : this.#span;
    const round = span?.spanContext();
    if (!round || !isSpanContextValid(round)) return undefined;
    const anchor = this.#flow && request?.anchored ? this.#flow.anchor : round;
    return encodeFlowContext(anchor, round);
  }

  /** The state was sealed, `size` characters long. */
  sealed(size: number): void {
    this.#telemetry.metrics?.sealed(size);
    this.#span?.addEvent('baton.request_state.sealed', { [ATTR.stateSize]: size });
  }

  end(end: RoundEnd): void {
    const { mode, method, target, request } = this.#start;
    const seconds = (performance.now() - this.#t0) / 1000;
    const metrics = this.#telemetry.metrics;
    metrics?.round(seconds, mode, method, target, end.outcome, end.errorType);
    if (end.flowEnd) metrics?.flowEnded(method, target, end.flowEnd);
    const span = this.#span;
    if (!span) return;
    if (span.isRecording()) {
      span.setAttribute(ATTR.roundOutcome, end.outcome);
      if (end.questionKeys) {
        span.setAttribute(ATTR.questionCount, end.questionKeys.length);
        span.setAttribute(ATTR.questionKeys, [...end.questionKeys]);
      }
      if (end.waitingStates) span.setAttribute(ATTR.waitingStates, [...end.waitingStates()]);
      if (end.flowEnd) span.setAttribute(ATTR.flowOutcome, end.flowEnd);
      if (end.errorType !== undefined) {
        // On a request's span the request ends it, and says the round's reason as its error.
        if (request) request.roundFailed(end.errorType);
        else {
          span.setAttribute(ATTR.errorType, end.errorType);
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
      }
    }
    // The request's span is ended by the request.
    if (!request) span.end();
  }

  #startSpan(): Span | undefined {
    return this.#start.request ? this.#requestRound(this.#start.request) : this.#ownSpan();
  }

  /** A round inside a request: recorded on the request's span (see above). */
  #requestRound(request: RequestTelemetry): Span | undefined {
    const span = request.span(this.#flow);
    if (!span?.isRecording()) return undefined;
    // Rounds count from 1; the sealed claim counts the rounds before this one.
    span.setAttribute(ATTR.roundMode, 'request');
    span.setAttribute(ATTR.round, (this.#opened?.round ?? 0) + 1);
    if (this.#flow) span.addLink({ context: this.#flow.round, attributes: { [ATTR.linkKind]: 'previous_round' } });
    if (this.#opened) {
      span.addEvent('baton.request_state.opened', { [ATTR.stateSize]: this.#opened.size }, this.#startTime);
    }
    this.#span = span;
    return span;
  }

  /**
   * A round with no request span: a task's step (a trace of its own: it may run hours after the
   * call), or a 2025-11-25 request's round (observability.md, "Limits"), a span of its own.
   */
  #ownSpan(): Span | undefined {
    const { mode, method, target, taskId, createdBy } = this.#start;
    const tracer = this.#telemetry.tracer();
    if (!tracer) return undefined;
    const links: Link[] = [];
    if (this.#flow) links.push({ context: this.#flow.round, attributes: { [ATTR.linkKind]: 'previous_round' } });
    const created = decodeFlowContext(createdBy);
    if (created) links.push({ context: created.round, attributes: { [ATTR.linkKind]: 'task_created_by' } });
    const span = tracer.startSpan(
      `baton.round ${target}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: this.#startTime,
        links,
        ...(mode === 'step' ? { root: true } : {}),
        attributes: {
          [ATTR.method]: method,
          ...targetAttribute(method, target),
          [ATTR.roundMode]: mode,
          // Rounds count from 1; the sealed claim counts the rounds before this one.
          ...(mode === 'request' ? { [ATTR.round]: (this.#opened?.round ?? 0) + 1 } : {}),
          ...(taskId === undefined ? {} : { [ATTR.taskId]: taskId }),
        },
      },
      context.active(),
    );
    if (this.#opened) {
      span.addEvent('baton.request_state.opened', { [ATTR.stateSize]: this.#opened.size }, this.#startTime);
    }
    this.#span = span;
    return span;
  }

  /** The context a task created at this round's handover carries, for its steps to link to. */
  handoverContext(): string | undefined {
    return this.sealContext();
  }
}
