/**
 * One request's round as the round kernel runs it (round/round-spec.ts), made once per call from
 * the call, what its state is bound to, and the state it resumes. It also mints the page
 * references its URL questions carry: they live exactly as long as the state this round seals,
 * so the expiry is fixed on first use and shared by both.
 */
import type { AnyStateMachine } from 'xstate';
import type { LogReport } from '../authoring/log-reports.js';
import type { UrlQuestion } from '../authoring/input-states.js';
import type { Cancellation } from '../cancellation.js';
import type { ClientCapabilities } from '../mcp-shapes.js';
import type { PageRefMinter, Progress, RequestRoundSpec } from '../round/index.js';
import type { KeyRing } from '../state/key-ring.js';
import { sealPageReference } from '../state/page-reference.js';
import type { StateClaims } from '../state/sealed-state.js';
import type { FlowDefinition } from '../authoring/flow-definition.js';
import type { FlowCall } from './flow-round.js';
import type { RoundTrace } from '../../telemetry/index.js';

/** What a sealed state is bound to, computed from the request being served. */
export interface Binding {
  principal: string;
  target: string;
  args: string;
  version: string;
  /** What the round's log lines name: `{ target }`, one object per flow. */
  logFields: Readonly<{ target: string }>;
}

export interface Resumed {
  claims: StateClaims;
  snapshot: unknown;
  /** The kept machine of an earlier version the state continues on; the flow's own when absent. */
  machine?: AnyStateMachine;
}

/** The engine's settings a round reads: made once per engine. */
export interface RoundSettings {
  keyRing: KeyRing;
  randomBytes: (length: number) => Uint8Array;
  clock: () => number;
  ttlSeconds: number;
  budgetMs: number;
  maxRounds: number;
}

export class RequestRound implements RequestRoundSpec, PageRefMinter {
  readonly mode = 'request';
  readonly flow: FlowDefinition;
  readonly name: string;
  readonly machine: AnyStateMachine;
  readonly input: Record<string, unknown>;
  readonly snapshot: unknown;
  readonly clientCapabilities: ClientCapabilities;
  readonly asked: readonly string[] | undefined;
  readonly responses: Record<string, unknown> | undefined;
  readonly answersAhead: Record<string, unknown> | undefined;
  readonly budgetMs: number;
  readonly signal: AbortSignal | Cancellation | undefined;
  readonly onProgress: ((report: Progress) => void) | undefined;
  readonly onLog: ((report: LogReport) => void) | undefined;
  readonly logFields: Readonly<{ target: string }>;
  readonly handover: boolean | undefined;
  readonly round: number;
  readonly maxRounds: number;
  readonly pageRefs: PageRefMinter = this;
  /** The round's span and metrics, when telemetry is on. */
  trace: RoundTrace | undefined;
  #issuedAt = -1;

  constructor(
    call: FlowCall,
    readonly binding: Binding,
    resumed: Resumed | undefined,
    readonly settings: RoundSettings,
    trace?: RoundTrace,
  ) {
    const { flow } = call;
    // Checked to be a plain object by the engine.
    const responses = call.inputResponses as Record<string, unknown> | undefined;
    this.flow = flow;
    this.name = flow.name;
    this.machine = resumed?.machine ?? flow.machine;
    this.input = call.arguments;
    this.snapshot = resumed?.snapshot;
    this.clientCapabilities = call.clientCapabilities;
    this.asked = resumed?.claims.asked;
    this.responses = resumed ? responses : undefined;
    // Only a first call answers ahead: answers sent with a state the deploy restarted were given
    // to another machine's questions, so they are not carried over.
    this.answersAhead = call.requestState === undefined ? responses : undefined;
    this.budgetMs = flow.timeBudgetMs ?? settings.budgetMs;
    this.signal = call.signal;
    this.onProgress = call.onProgress;
    this.onLog = call.onLog;
    this.logFields = binding.logFields;
    this.handover = call.handover;
    this.round = resumed?.claims.round ?? 0;
    this.maxRounds = settings.maxRounds;
    this.trace = trace;
  }

  /** When the state this round seals is issued (epoch seconds): read when it is first needed. */
  get issuedAt(): number {
    if (this.#issuedAt < 0) this.#issuedAt = Math.floor(this.settings.clock() / 1000);
    return this.#issuedAt;
  }

  get expiresAt(): number {
    return this.issuedAt + (this.flow.stateTtlSeconds ?? this.settings.ttlSeconds);
  }

  mintPageRef(question: UrlQuestion, subject: string): string {
    const { binding, settings } = this;
    return sealPageReference(
      { principal: binding.principal, target: binding.target, key: question.key, subject, expiresAt: this.expiresAt },
      settings.keyRing,
      settings.randomBytes,
    );
  }
}
