/**
 * One round of a machine-backed flow in a request: open the sealed state (if any) and check what
 * it is bound to, run the round in the kernel (round/round-kernel.ts: restore, answer, settle,
 * ask), and answer either the outcome or the next questions with a freshly sealed state.
 * Stateless: everything a later round needs is in the token, so any instance holding the key
 * ring can continue any flow.
 */
import type { AnyStateMachine } from 'xstate';
import { canonicalJson, principalDigest, shortDigest } from '../state/canonical-digest.js';
import { EngineError } from '../engine-error.js';
import type { FlowDefinition } from '../authoring/flow-definition.js';
import type { FlowCall, FlowOutcome } from './flow-round.js';
import { SINGLE_USE_TAG } from '../authoring/input-states.js';
import { DEFAULT_SINGLE_USE_QUOTA, MemoryReplayGuard, type ReplayGuard } from '../state/replay-guard.js';
import { pooledRandomBytes } from '../state/random-pool.js';
import { runOnce } from './single-use-run.js';
import type { KeyRing } from '../state/key-ring.js';
import { silentLogger, type Logger } from '../logger.js';
import { openState, sealBounded, type StateClaims } from '../state/sealed-state.js';
import { structuralVersion } from '../state/structural-version.js';
import { isRecord } from '../plain-objects.js';
import { flowEndOf, roundEnd, RoundKernel, type RequestRoundOutcome, type XStatePath } from '../round/index.js';
import { RoundTrace, type RefusalReason, type Telemetry } from '../../telemetry/index.js';
import { RequestRound, type Binding, type Resumed, type RoundSettings } from './request-round.js';
import { VersionRoutes } from '../versions/version-routes.js';

export interface FlowEngineOptions {
  keyRing: KeyRing;
  /** Milliseconds since the epoch; injected so expiry is tested without sleeping. */
  clock?: () => number;
  randomBytes?: (length: number) => Uint8Array;
  logger?: Logger;
  /** Default lifetime of a sealed state, in seconds (15 minutes). */
  stateTtlSeconds?: number;
  /** Largest `requestState` accepted or issued, in characters (16 KiB). */
  maxStateLength?: number;
  /** Default time budget of one round, in milliseconds (30 s). */
  timeBudgetMs?: number;
  /** Rounds after which a flow that keeps asking ends with a tool error (50). */
  maxRounds?: number;
  /** Where single-use states are claimed (in memory by default; Redis for a fleet). */
  replayGuard?: ReplayGuard;
  /** Live single-use claims one caller may hold (1,000). */
  singleUseQuota?: number;
  /** Spans and metrics (telemetry/); without it the engine records none. */
  telemetry?: Telemetry;
  /**
   * `auto` (the default) runs rounds without invoked actors or delays in a lean copy of XState's
   * actor (engine/round/round-actor.ts); `public` runs every round in XState's own.
   */
  xstatePath?: XStatePath;
}

export const DEFAULT_STATE_TTL_SECONDS = 15 * 60;
export const DEFAULT_MAX_STATE_LENGTH = 16 * 1024;
export const DEFAULT_TIME_BUDGET_MS = 30_000;
export const DEFAULT_MAX_ROUNDS = 50;

const INVALID_STATE = 'invalid or expired requestState';

/** Each failed check of a presented state, as the refusal metric counts it. */
const REFUSAL_REASONS: Record<string, RefusalReason> = {
  seal: 'tampered',
  expiry: 'expired',
  principal: 'foreign_principal',
  target: 'wrong_target',
  arguments: 'wrong_arguments',
};

export class FlowEngine {
  readonly #keyRing: KeyRing;
  readonly #clock: () => number;
  readonly #randomBytes: (length: number) => Uint8Array;
  readonly #logger: Logger;
  readonly #maxStateLength: number;
  readonly #settings: RoundSettings;
  readonly #guard: ReplayGuard;
  readonly #quota: number;
  readonly #kernel: RoundKernel;
  readonly #telemetry: Telemetry | undefined;
  readonly #versions = new WeakMap<AnyStateMachine, string>();
  /** Earlier versions kept or migrated (versions/): asked only of a state the current machine did not seal. */
  readonly #routes = new VersionRoutes((machine) => this.versionOf(machine));
  readonly #logFields = new WeakMap<FlowDefinition, Readonly<{ target: string }>>();
  #lastPrincipal: string | undefined;
  #lastPrincipalDigest = '';

  constructor(options: FlowEngineOptions) {
    this.#keyRing = options.keyRing;
    this.#clock = options.clock ?? Date.now;
    this.#randomBytes = options.randomBytes ?? pooledRandomBytes();
    this.#logger = options.logger ?? silentLogger;
    this.#maxStateLength = options.maxStateLength ?? DEFAULT_MAX_STATE_LENGTH;
    this.#settings = {
      keyRing: this.#keyRing,
      randomBytes: this.#randomBytes,
      clock: this.#clock,
      ttlSeconds: options.stateTtlSeconds ?? DEFAULT_STATE_TTL_SECONDS,
      budgetMs: options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS,
      maxRounds: options.maxRounds ?? DEFAULT_MAX_ROUNDS,
    };
    this.#kernel = new RoundKernel({ logger: this.#logger, xstatePath: options.xstatePath ?? 'auto' });
    this.#guard = options.replayGuard ?? new MemoryReplayGuard({ clock: this.#clock });
    this.#quota = options.singleUseQuota ?? DEFAULT_SINGLE_USE_QUOTA;
    this.#telemetry = options.telemetry;
  }

  /** The structural version of a machine, computed once. */
  versionOf(machine: AnyStateMachine): string {
    let version = this.#versions.get(machine);
    if (!version) {
      version = structuralVersion(machine);
      this.#versions.set(machine, version);
    }
    return version;
  }

  /**
   * One round of a flow. A round that settles without waiting (no invoked work, no single-use
   * claim) is answered without a promise; a refused call throws at once.
   */
  run(call: FlowCall): FlowOutcome | Promise<FlowOutcome> {
    if (call.inputResponses !== undefined && !isRecord(call.inputResponses)) {
      throw new EngineError('invalid_responses', 'inputResponses must be an object keyed by inputRequests keys');
    }
    const binding = this.#binding(call);
    const { flow } = call;
    // Checked first: with telemetry off, a round builds nothing for it.
    const trace = this.#telemetry?.active
      ? RoundTrace.begin(this.#telemetry, {
          mode: 'request',
          method: flow.method,
          target: flow.catalogueName ?? flow.name,
          request: call.trace,
        })
      : undefined;
    const resumed = call.requestState === undefined ? undefined : this.#resume(call, binding, trace);
    if (call.requestState === undefined) {
      this.#telemetry?.metrics?.flowStarted(flow.method, flow.catalogueName ?? flow.name);
    }
    // Starting the actor runs entry actions and invoked work; none of it is for a client already gone.
    if (call.signal?.aborted) return { kind: 'aborted' };
    if (!resumed?.claims.singleUse) return this.#runRound(call, binding, resumed, trace);
    const single = {
      guard: this.#guard,
      logger: this.#logger,
      id: resumed.claims.id,
      expiresAt: resumed.claims.expiresAt,
      now: this.#clock(),
      budgetMs: call.flow.timeBudgetMs ?? this.#settings.budgetMs,
      target: binding.target,
      scope: { owner: call.quotaOwner ?? call.principal, quota: this.#quota, issuedAt: resumed.claims.issuedAt },
      ...(trace ? { onRefused: (reason: 'replayed' | 'in_use') => trace.refused(reason) } : {}),
      ...(answersAny(resumed.claims.asked, call.inputResponses) ? {} : { unanswered: call.requestState as string }),
    };
    return runOnce(single, async () => this.#runRound(call, binding, resumed, trace));
  }

  /**
   * Runs the round in the kernel and answers its outcome; a round that settled without waiting
   * is answered without a promise.
   */
  #runRound(
    call: FlowCall,
    binding: Binding,
    resumed: Resumed | undefined,
    trace: RoundTrace | undefined,
  ): FlowOutcome | Promise<FlowOutcome> {
    const round = new RequestRound(call, binding, resumed, this.#settings, trace);
    const outcome = trace ? trace.run(() => this.#kernel.run(round)) : this.#kernel.run(round);
    if (outcome instanceof Promise) return outcome.then((later) => this.#answer(round, later));
    return this.#answer(round, outcome);
  }

  #binding(call: FlowCall): Binding {
    // Most requests in a row come from one principal: its digest is kept for the next call.
    if (call.principal !== this.#lastPrincipal) {
      this.#lastPrincipal = call.principal;
      this.#lastPrincipalDigest = principalDigest(call.principal);
    }
    let logFields = this.#logFields.get(call.flow);
    if (logFields === undefined) {
      logFields = Object.freeze({ target: `${call.flow.method} ${call.flow.name}` });
      this.#logFields.set(call.flow, logFields);
    }
    return {
      principal: this.#lastPrincipalDigest,
      target: logFields.target,
      args: shortDigest(canonicalJson(call.arguments)),
      version: this.versionOf(call.flow.machine),
      logFields,
    };
  }

  /**
   * Opens and checks a presented state. A state sealed by another version of the machine goes on
   * as that version allows (#earlier): on the kept machine, migrated, or restarted.
   */
  #resume(call: FlowCall, binding: Binding, trace: RoundTrace | undefined): Resumed | undefined {
    const opened = openState(call.requestState, this.#keyRing, this.#maxStateLength);
    if (!opened) throw this.#reject('seal', binding, trace);
    const { claims } = opened;
    trace?.opened(claims.trace, (call.requestState as string).length, claims.round);
    if (Math.floor(this.#clock() / 1000) >= claims.expiresAt) throw this.#reject('expiry', binding, trace);
    if (claims.principal !== binding.principal) throw this.#reject('principal', binding, trace);
    if (claims.target !== binding.target) throw this.#reject('target', binding, trace);
    if (claims.args !== binding.args) throw this.#reject('arguments', binding, trace);
    if (claims.version !== binding.version) return this.#earlier(call, binding, opened);
    return opened;
  }

  /**
   * A state an earlier version of the machine sealed (a deploy changed its structure): it goes on
   * on the kept machine, whose version the next state is bound to again; or migrated onto the
   * current machine; or, when the tool neither keeps nor migrates that version, it restarts from
   * the first question on the current machine (docs/deploy.md).
   */
  #earlier(call: FlowCall, binding: Binding, opened: Resumed): Resumed | undefined {
    const { version } = opened.claims;
    const next = this.#routes.continuation(call.flow, version, opened.snapshot, call.arguments);
    const fields = { target: binding.target, version, ...(next.kind === 'unknown' ? {} : { label: next.route.label }) };
    if (next.kind !== 'migrated' && next.problem !== undefined)
      this.#logger.warn('request_state_migration_failed', { ...fields, problem: next.problem });
    switch (next.kind) {
      case 'kept':
        this.#logger.info('request_state_kept', fields);
        // The binding is this call's own: the next state is sealed for the kept version again.
        binding.version = version;
        return { ...opened, machine: next.machine };
      case 'migrated':
        this.#logger.info('request_state_migrated', fields);
        return { ...opened, snapshot: next.snapshot };
      case 'unknown':
        this.#logger.info('request_state_restarted', { ...fields, reason: 'machine changed' });
        return undefined;
    }
  }

  #reject(check: string, binding: Binding, trace: RoundTrace | undefined): EngineError {
    // The reason is logged (and counted) for operators and never sent: the client learns only "invalid".
    trace?.refused(REFUSAL_REASONS[check]!);
    // Before any round runs, no span is active: the line names the request's span itself.
    this.#logger.warn('request_state_rejected', { check, target: binding.target, ...trace?.requestLogFields() });
    return new EngineError('invalid_state', INVALID_STATE);
  }

  /** The kernel's outcome as the protocol takes it: questions come with a freshly sealed state. */
  #answer(round: RequestRound, outcome: RequestRoundOutcome): FlowOutcome {
    const { trace } = round;
    if (!trace) return this.#answerOf(round, outcome);
    const responses = round.responses ?? round.answersAhead;
    if (outcome.kind === 'refused') {
      trace.end(roundEnd(outcome, flowEndOf(outcome, round.asked, responses)));
      throw outcome.error;
    }
    // Sealing is an event on the round's span, which ends once the answer is made.
    const answer = this.#answerOf(round, outcome);
    const ended = outcome.kind === 'asking' && answer.kind === 'failed' ? UNPAUSABLE : outcome;
    if (answer.kind === 'task') answer.traceContext = trace.sealContext();
    trace.end(roundEnd(ended, flowEndOf(ended, round.asked, responses)));
    return answer;
  }

  #answerOf(round: RequestRound, outcome: RequestRoundOutcome): FlowOutcome {
    switch (outcome.kind) {
      case 'complete':
      case 'aborted':
        return outcome;
      case 'failed':
        return { kind: 'failed', message: outcome.message };
      case 'refused':
        throw outcome.error;
      case 'handover':
        // The snapshot a task continues from: taken where long work starts, before any of it ran.
        // `machine`: a flow on a kept version hands over to a task pinned to that version.
        return { kind: 'task', snapshot: outcome.persisted, timers: outcome.timers, machine: round.machine };
      case 'asking':
        return this.#seal(round, outcome);
    }
  }

  #seal(round: RequestRound, asking: Extract<RequestRoundOutcome, { kind: 'asking' }>): FlowOutcome {
    const { binding, flow } = round;
    const claims: StateClaims = {
      principal: binding.principal,
      target: binding.target,
      args: binding.args,
      version: binding.version,
      issuedAt: round.issuedAt,
      expiresAt: round.expiresAt,
      id: stateId(this.#randomBytes(12)),
      round: round.round + 1,
      asked: asking.keys,
      singleUse: Boolean(flow.singleUse) || asking.snapshot.hasTag(SINGLE_USE_TAG),
    };
    const trace = round.trace?.sealContext();
    if (trace !== undefined) claims.trace = trace;
    const sealed = sealBounded(
      { claims, snapshot: asking.persisted },
      { keyRing: this.#keyRing, randomBytes: this.#randomBytes, maxLength: this.#maxStateLength },
    );
    if ('tooLarge' in sealed) {
      const { sealedLength, textLength, message } = sealed.tooLarge;
      this.#logger.error('state_too_large', { target: binding.target, length: sealedLength, text: textLength });
      return {
        kind: 'failed',
        message: `${flow.name} cannot pause: ${message}. Keep less in the machine's context.`,
      };
    }
    round.trace?.sealed(sealed.token.length);
    return { kind: 'input_required', inputRequests: asking.inputRequests, requestState: sealed.token };
  }
}

/** A state too large to seal fails its round: its span and metrics say so. */
const UNPAUSABLE: RequestRoundOutcome = { kind: 'failed', reason: 'unpausable', message: '' };

/**
 * A state's unique id: random bytes as base64url. Copied into a Buffer, not read in place: the
 * pool's 12-byte draws live inside V8's heap, and asking one for its `.buffer` moves it out into
 * a backing store of its own (1.5 µs against 0.55 µs for the copy, Node 20, in a hot loop).
 */
function stateId(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

/** Whether `responses` holds an answer to any of the keys asked. */
function answersAny(asked: string[], responses: unknown): boolean {
  return isRecord(responses) && asked.some((key) => Object.hasOwn(responses, key));
}
