/**
 * One round of a machine-backed flow: open the sealed state (if any), rehydrate the actor, feed
 * the answers in as events, run until settled, and answer either the outcome or the next
 * questions with a freshly sealed state. Stateless: everything a later round needs is in the
 * token, so any instance holding the key ring can continue any flow.
 */
import { createActor, type AnyActor, type AnyEventObject, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import { MAX_FALLBACK_HOPS, takeFallbacks } from './unsupported-fallbacks.js';
import { deliverAnswers } from './answer-delivery.js';
import { canonicalJson, shortDigest } from '../state/canonical-digest.js';
import { EngineError } from '../engine-error.js';
import { abortSignalOf } from '../cancellation.js';
import type { FlowDefinition } from '../authoring/flow-definition.js';
import type { FlowCall, FlowOutcome, Progress } from './flow-round.js';
import { PROGRESS_EVENT, SINGLE_USE_TAG } from '../authoring/input-states.js';
import { isLoggingLevel, LOG_EVENT, type LogReport } from '../authoring/log-reports.js';
import { DEFAULT_SINGLE_USE_QUOTA, MemoryReplayGuard, type ReplayGuard } from '../state/replay-guard.js';
import { pooledRandomBytes } from '../state/random-pool.js';
import { runOnce } from './single-use-run.js';
import { JsonSchemaValidator } from '../json-schema-validator.js';
import type { KeyRing } from '../state/key-ring.js';
import { silentLogger, type Logger } from '../logger.js';
import type { ClientCapabilities, InputRequest } from '../mcp-shapes.js';
import {
  clientSupports,
  mergeCapabilities,
  pendingQuestions,
  requiredCapability,
  toInputRequest,
  type PageRefMinter,
} from './pending-questions.js';
import { persistAtQuestion } from './pause-check.js';
import { principalDigest, sealPageReference } from '../state/page-reference.js';
import { openState, sealBounded, type StateClaims } from '../state/sealed-state.js';
import { askedQuestionProblem } from './form-schema-check.js';
import { settle, settledNow, type SettleOptions, type Settled } from './settle.js';
import { pendingTimers } from '../tasks/scheduled-timers.js';
import { taskHandover, withParkedActors } from '../tasks/task-handover.js';
import { structuralVersion } from '../state/structural-version.js';
import { isRecord } from '../plain-objects.js';

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
}

export const DEFAULT_STATE_TTL_SECONDS = 15 * 60;
export const DEFAULT_MAX_STATE_LENGTH = 16 * 1024;
export const DEFAULT_TIME_BUDGET_MS = 30_000;
export const DEFAULT_MAX_ROUNDS = 50;

const INVALID_STATE = 'invalid or expired requestState';

/** What a sealed state is bound to, computed from the request being served. */
interface Binding {
  principal: string;
  target: string;
  args: string;
  version: string;
}

interface Resumed {
  claims: StateClaims;
  snapshot: unknown;
}

/**
 * One round as the engine's steps see it, made once per call: the steps read what they need from
 * here instead of threading it through every call.
 */
interface Round {
  readonly call: FlowCall;
  readonly binding: Binding;
  readonly actor: AnyActor;
  /** Rounds this flow had before this one (0 on a first call). */
  readonly number: number;
  /** Why an answer was not taken, by key: the question is asked again with this reason. */
  readonly retryReasons: Record<string, string>;
  /** The round's time budget in ms, and when it runs out (performance.now()): one for the whole round. */
  readonly budget: number;
  readonly deadline: number;
  readonly settleOptions: SettleOptions;
}

const NO_HANDOVER: SettleOptions = {};
const HANDOVER: SettleOptions = { handover: taskHandover };

export class FlowEngine {
  readonly #keyRing: KeyRing;
  readonly #clock: () => number;
  readonly #randomBytes: (length: number) => Uint8Array;
  readonly #logger: Logger;
  readonly #ttl: number;
  readonly #maxStateLength: number;
  readonly #budget: number;
  readonly #maxRounds: number;
  readonly #guard: ReplayGuard;
  readonly #quota: number;
  readonly #validator = new JsonSchemaValidator();
  readonly #versions = new WeakMap<AnyStateMachine, string>();
  readonly #targets = new WeakMap<FlowDefinition, string>();
  #lastPrincipal: string | undefined;
  #lastPrincipalDigest = '';

  constructor(options: FlowEngineOptions) {
    this.#keyRing = options.keyRing;
    this.#clock = options.clock ?? Date.now;
    this.#randomBytes = options.randomBytes ?? pooledRandomBytes();
    this.#logger = options.logger ?? silentLogger;
    this.#ttl = options.stateTtlSeconds ?? DEFAULT_STATE_TTL_SECONDS;
    this.#maxStateLength = options.maxStateLength ?? DEFAULT_MAX_STATE_LENGTH;
    this.#budget = options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS;
    this.#maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS;
    this.#guard = options.replayGuard ?? new MemoryReplayGuard({ clock: this.#clock });
    this.#quota = options.singleUseQuota ?? DEFAULT_SINGLE_USE_QUOTA;
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

  async run(call: FlowCall): Promise<FlowOutcome> {
    if (call.inputResponses !== undefined && !isRecord(call.inputResponses)) {
      throw new EngineError('invalid_responses', 'inputResponses must be an object keyed by inputRequests keys');
    }
    const binding = this.#binding(call);
    const resumed = call.requestState === undefined ? undefined : this.#resume(call, binding);
    // Starting the actor runs entry actions and invoked work; none of it is for a client already gone.
    if (call.signal?.aborted) return { kind: 'aborted' };
    if (!resumed?.claims.singleUse) return this.#runRound(call, binding, resumed);
    const single = {
      guard: this.#guard,
      logger: this.#logger,
      id: resumed.claims.id,
      expiresAt: resumed.claims.expiresAt,
      now: this.#clock(),
      budgetMs: call.flow.timeBudgetMs ?? this.#budget,
      target: binding.target,
      scope: { owner: call.quotaOwner ?? call.principal, quota: this.#quota, issuedAt: resumed.claims.issuedAt },
      ...(answersAny(resumed.claims.asked, call.inputResponses) ? {} : { unanswered: call.requestState as string }),
    };
    return runOnce(single, async () => this.#runRound(call, binding, resumed));
  }

  /**
   * Most rounds settle without waiting on anything (no invoked work): such a round is answered
   * without a promise between its steps, and only one that waits returns one.
   */
  #runRound(call: FlowCall, binding: Binding, resumed: Resumed | undefined): FlowOutcome | Promise<FlowOutcome> {
    const { flow } = call;
    const machine = call.handover ? withParkedActors(flow.machine) : flow.machine;
    const actor = resumed
      ? createActor(machine, { snapshot: resumed.snapshot as never, input: call.arguments })
      : createActor(machine, { input: call.arguments });
    // XState rethrows an unobserved actor error from a timer, which would take the process down.
    actor.subscribe({ error: ignore });
    const progress = call.onProgress ? this.#forwardProgress(actor, call.onProgress) : undefined;
    const logs = call.onLog ? forwardLogs(actor, call.onLog) : undefined;
    // Nothing more may be reported once the round has an answer (spec, progress).
    const end = () => {
      progress?.unsubscribe();
      logs?.unsubscribe();
      actor.stop();
    };
    let outcome: FlowOutcome | Promise<FlowOutcome>;
    try {
      actor.start();
      // Checked to be a plain object in run().
      const responses = call.inputResponses as Record<string, unknown> | undefined;
      const budget = flow.timeBudgetMs ?? this.#budget;
      const round: Round = {
        call,
        binding,
        actor,
        number: resumed?.claims.round ?? 0,
        retryReasons:
          resumed && responses ? deliverAnswers(actor, resumed.claims.asked, responses, this.#validator) : {},
        budget,
        deadline: performance.now() + budget,
        settleOptions: call.handover ? HANDOVER : NO_HANDOVER,
      };
      // Only a first call answers ahead: answers sent with a state the deploy restarted were given
      // to another machine's questions, so they are not carried over.
      outcome = this.#conclude(round, call.requestState === undefined ? responses : undefined);
    } catch (error) {
      end();
      throw error;
    }
    if (outcome instanceof Promise) return outcome.finally(end);
    end();
    return outcome;
  }

  #forwardProgress(actor: AnyActor, onProgress: (report: Progress) => void) {
    let last = -Infinity;
    return actor.on(PROGRESS_EVENT, (event: AnyEventObject) => {
      const { progress, total, message } = event as unknown as Progress;
      if (typeof progress !== 'number' || !Number.isFinite(progress) || progress <= last) return;
      last = progress;
      onProgress({
        progress,
        ...(typeof total === 'number' ? { total } : {}),
        ...(typeof message === 'string' ? { message } : {}),
      });
    });
  }

  #binding(call: FlowCall): Binding {
    // Most requests in a row come from one principal: its digest is kept for the next call.
    if (call.principal !== this.#lastPrincipal) {
      this.#lastPrincipal = call.principal;
      this.#lastPrincipalDigest = principalDigest(call.principal);
    }
    let target = this.#targets.get(call.flow);
    if (target === undefined) {
      target = `${call.flow.method} ${call.flow.name}`;
      this.#targets.set(call.flow, target);
    }
    return {
      principal: this.#lastPrincipalDigest,
      target,
      args: shortDigest(canonicalJson(call.arguments)),
      version: this.versionOf(call.flow.machine),
    };
  }

  /** Opens and checks a presented state; a deploy that changed the machine restarts the flow. */
  #resume(call: FlowCall, binding: Binding): Resumed | undefined {
    const opened = openState(call.requestState, this.#keyRing, this.#maxStateLength);
    if (!opened) throw this.#reject('seal', binding);
    const { claims } = opened;
    if (Math.floor(this.#clock() / 1000) >= claims.expiresAt) throw this.#reject('expiry', binding);
    if (claims.principal !== binding.principal) throw this.#reject('principal', binding);
    if (claims.target !== binding.target) throw this.#reject('target', binding);
    if (claims.args !== binding.args) throw this.#reject('arguments', binding);
    if (claims.version !== binding.version) {
      this.#logger.info('request_state_restarted', { target: binding.target, reason: 'machine changed' });
      return undefined;
    }
    return opened;
  }

  #reject(check: string, binding: Binding): EngineError {
    // The reason is logged for operators and never sent: the client learns only "invalid".
    this.#logger.warn('request_state_rejected', { check, target: binding.target });
    return new EngineError('invalid_state', INVALID_STATE);
  }

  #conclude(round: Round, answersAhead: Record<string, unknown> | undefined): FlowOutcome | Promise<FlowOutcome> {
    const settled = this.#settle(round);
    if (settled instanceof Promise) return settled.then((later) => this.#answerAhead(round, later, answersAhead));
    return this.#answerAhead(round, settled, answersAhead);
  }

  /**
   * A call without requestState may carry answers ahead: they answer the questions the flow asks
   * first (nothing else was asked), which saves the client a round trip.
   */
  #answerAhead(
    round: Round,
    settled: Settled,
    answersAhead: Record<string, unknown> | undefined,
  ): FlowOutcome | Promise<FlowOutcome> {
    if (!answersAhead || settled.kind !== 'waiting') return this.#outcomeOf(round, settled);
    const firstKeys = pendingQuestions(settled.snapshot).map((p) => p.question.key);
    Object.assign(round.retryReasons, deliverAnswers(round.actor, firstKeys, answersAhead, this.#validator));
    const again = this.#settle(round);
    if (again instanceof Promise) return again.then((later) => this.#outcomeOf(round, later));
    return this.#outcomeOf(round, again);
  }

  #outcomeOf(round: Round, settled: Settled): FlowOutcome {
    const { call, binding } = round;
    switch (settled.kind) {
      case 'done':
        return { kind: 'complete', output: settled.output };
      case 'aborted':
        return { kind: 'aborted' };
      case 'handover':
        return this.#handOver(round);
      case 'timeout': {
        const pending = settled.pending ? ` Still running: ${settled.pending}.` : '';
        return {
          kind: 'failed',
          message: `${call.flow.name} did not finish its work within ${round.budget} ms.${pending}`,
        };
      }
      case 'blocked':
        this.#logger.error('flow_blocked', { target: binding.target, reason: settled.reason });
        return { kind: 'failed', message: `${call.flow.name} cannot pause: ${settled.reason}.` };
      case 'error': {
        const message = settled.error instanceof Error ? settled.error.message : String(settled.error);
        this.#logger.warn('flow_failed', { target: binding.target, message });
        return { kind: 'failed', message: `${call.flow.name} failed: ${message}` };
      }
      case 'stuck':
        this.#logger.error('flow_stuck', { target: binding.target, state: settled.value });
        throw new EngineError('internal', 'The tool stopped in a state that neither finishes nor asks for input');
      case 'waiting':
        return this.#ask(round, settled.snapshot);
    }
  }

  /**
   * Settles, then lets each question the client cannot be asked take its onUnsupported path when
   * it has one; the machine may then ask something else, so settle again (bounded). An actor that
   * has already settled (most rounds: no invoked work) is answered without a promise, a timer or
   * an abort listener.
   */
  #settle(round: Round): Settled | Promise<Settled> {
    const settled = settledNow(round.actor, round.deadline, round.settleOptions);
    if (!settled) return this.#settleWithFallbacks(round, 0);
    if (settled.kind !== 'waiting' || !takeFallbacks(round.actor, settled.snapshot, round.call.clientCapabilities)) {
      return settled;
    }
    return this.#settleWithFallbacks(round, 1);
  }

  async #settleWithFallbacks(round: Round, hopsTaken: number): Promise<Settled> {
    const { actor, call, deadline, settleOptions } = round;
    const signal = call.signal && abortSignalOf(call.signal);
    let settled = await settle(actor, Math.max(0, deadline - performance.now()), signal, settleOptions);
    for (let hop = hopsTaken; settled.kind === 'waiting' && hop < MAX_FALLBACK_HOPS; hop++) {
      if (!takeFallbacks(actor, settled.snapshot, call.clientCapabilities)) break;
      settled = await settle(actor, Math.max(0, deadline - performance.now()), signal, settleOptions);
    }
    return settled;
  }

  /** The snapshot a task continues from: taken where long work starts, before any of it ran. */
  #handOver({ actor, call, binding }: Round): FlowOutcome {
    const paused = persistAtQuestion(actor);
    if ('problem' in paused) {
      this.#logger.error('context_unserializable', { target: binding.target, problem: paused.problem });
      return { kind: 'failed', message: `${call.flow.name} cannot pause: ${paused.problem}.` };
    }
    return { kind: 'task', snapshot: paused.persisted, timers: pendingTimers(actor) };
  }

  #ask(round: Round, snapshot: AnyMachineSnapshot): FlowOutcome {
    const { actor, call, binding, retryReasons } = round;
    const number = round.number + 1;
    const inputRequests: Record<string, InputRequest> = {};
    const asked: string[] = [];
    let missing: ClientCapabilities | undefined;
    const issuedAt = Math.floor(this.#clock() / 1000);
    const expiresAt = issuedAt + (call.flow.stateTtlSeconds ?? this.#ttl);
    const mint: PageRefMinter = (question, subject) =>
      sealPageReference(
        { principal: binding.principal, target: binding.target, key: question.key, subject, expiresAt },
        this.#keyRing,
        this.#randomBytes,
      );
    for (const { question, stateId } of pendingQuestions(snapshot)) {
      const request = toInputRequest(question, snapshot.context, retryReasons[question.key], mint);
      // A static schema was checked at start-up; one computed from context is checked as it is asked.
      const problem = askedQuestionProblem(question, request, () => `${call.flow.name}, state "${stateId}"`);
      if (problem) {
        this.#logger.error('bad_computed_question', { target: binding.target, state: stateId, problem });
        return { kind: 'failed', message: problem };
      }
      if (!clientSupports(question, request, call.clientCapabilities)) {
        missing = mergeCapabilities(missing ?? {}, requiredCapability(question, request));
      }
      inputRequests[question.key] = request;
      asked.push(question.key);
    }
    if (missing) {
      throw new EngineError('missing_capability', 'The tool needs input of a kind this client did not declare', {
        requiredCapabilities: missing,
      });
    }
    if (number > this.#maxRounds) {
      return {
        kind: 'failed',
        message: `${call.flow.name} asked for input ${this.#maxRounds} times without finishing.`,
      };
    }
    const paused = persistAtQuestion(actor);
    if ('problem' in paused) {
      this.#logger.error('context_unserializable', { target: binding.target, problem: paused.problem });
      return { kind: 'failed', message: `${call.flow.name} cannot pause: ${paused.problem}.` };
    }
    const sealed = sealBounded(
      {
        claims: {
          principal: binding.principal,
          target: binding.target,
          args: binding.args,
          version: binding.version,
          issuedAt,
          expiresAt,
          id: stateId(this.#randomBytes(12)),
          round: number,
          asked,
          singleUse: Boolean(call.flow.singleUse) || snapshot.hasTag(SINGLE_USE_TAG),
        },
        snapshot: paused.persisted,
      },
      { keyRing: this.#keyRing, randomBytes: this.#randomBytes, maxLength: this.#maxStateLength },
    );
    if ('tooLarge' in sealed) {
      const { sealedLength, textLength, message } = sealed.tooLarge;
      this.#logger.error('state_too_large', { target: binding.target, length: sealedLength, text: textLength });
      return {
        kind: 'failed',
        message: `${call.flow.name} cannot pause: ${message}. Keep less in the machine's context.`,
      };
    }
    return { kind: 'input_required', inputRequests, requestState: sealed.token };
  }
}

function ignore(): void {}

/** A state's unique id: random bytes as base64url, read in place (no copy into a Buffer). */
function stateId(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

function forwardLogs(actor: AnyActor, onLog: (report: LogReport) => void) {
  return actor.on(LOG_EVENT, (event: AnyEventObject) => {
    const { level, data, logger } = event as unknown as LogReport;
    if (!isLoggingLevel(level)) return;
    onLog({ level, data, ...(typeof logger === 'string' ? { logger } : {}) });
  });
}

/** Whether `responses` holds an answer to any of the keys asked. */
function answersAny(asked: string[], responses: unknown): boolean {
  return isRecord(responses) && asked.some((key) => Object.hasOwn(responses, key));
}
