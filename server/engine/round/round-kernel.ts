/**
 * One round of a machine, for a flow in a request and a task step alike: restore the actor, feed
 * the answers in as events, run until settled (one rule, settle.ts), let questions the client
 * cannot be asked take their fallbacks, collect the questions it waits on, and persist where it
 * stopped, or say how it failed. What surrounds a round (sealing, single use, the task's record
 * and queue) is the caller's; what happens inside one is here, once.
 *
 * A round starts in `run` and ends in `#end`, which gets its outcome: the one place to observe a
 * round whole. Most rounds settle without waiting on anything (no invoked work): such a round is
 * answered without a promise or an AbortSignal, and only one that waits returns a promise.
 */
import type { AnyActor, AnyMachineSnapshot, Subscription } from 'xstate';
import { abortSignalOf } from '../cancellation.js';
import { EngineError } from '../engine-error.js';
import { JsonSchemaValidator } from '../json-schema-validator.js';
import { silentLogger, type Logger } from '../logger.js';
import { registerRunScope } from '../authoring/task-authoring.js';
import { deliverAnswers } from './answer-delivery.js';
import { forwardLogs, forwardProgress, forwardStates } from './machine-reports.js';
import { pausedSnapshot } from './paused-snapshot.js';
import { pendingQuestions } from './pending-questions.js';
import { RoundActors, type XStatePath } from './round-actor.js';
import { collectQuestions } from './question-collection.js';
import type { FailureReason, RequestRoundOutcome, RoundOutcome, TaskStepOutcome } from './round-outcome.js';
import type { RequestRoundSpec, RoundSpec, TaskStepSpec } from './round-spec.js';
import { pendingTimers, rearmTimers, type TaskTimer } from './scheduled-timers.js';
import { IN_ROUND, settle, settledNow, type SettleRule, type Settled } from './settle.js';
import { taskHandover, withParkedActors } from './task-handover.js';
import { MAX_FALLBACK_HOPS, takeFallbacks } from './unsupported-fallbacks.js';

export interface RoundKernelOptions {
  validator?: JsonSchemaValidator;
  logger?: Logger;
  /** Which actor a round in a request runs in (round-actor.ts); XState's own by default. */
  xstatePath?: XStatePath;
}

export const STUCK_MESSAGE = 'The tool stopped in a state that neither finishes nor asks for input';
export const MISSING_CAPABILITY_MESSAGE = 'The tool needs input of a kind this client did not declare';

const HANDOVER_RULE: SettleRule = { handover: taskHandover };
/** A request's round pauses only at a question with no timer pending (settle.ts): none to record. */
const NO_TIMERS: TaskTimer[] = [];

/** One round while it runs: what its steps share, made once. */
class ActiveRound {
  readonly rule: SettleRule;
  /** When the budget runs out (performance.now()), set once the answers are in. */
  deadline = 0;
  /** Why an answer was not taken, by question key: the question is asked again with this reason. */
  retryReasons: Record<string, string> = {};
  readonly #progress: Subscription | undefined;
  readonly #logs: Subscription | undefined;
  readonly #states: Subscription | undefined;

  constructor(
    readonly spec: RoundSpec,
    readonly actor: AnyActor,
  ) {
    this.rule =
      spec.mode === 'step'
        ? { durableTimers: { inlineTimerMs: spec.inlineTimerMs } }
        : spec.handover
          ? HANDOVER_RULE
          : IN_ROUND;
    this.#progress = spec.onProgress ? forwardProgress(actor, spec.onProgress) : undefined;
    this.#logs = spec.mode === 'request' && spec.onLog ? forwardLogs(actor, spec.onLog) : undefined;
    this.#states = spec.mode === 'step' && spec.onStates ? forwardStates(actor, spec.onStates) : undefined;
  }

  /** Nothing more may be reported once the round has an answer (spec, progress). */
  stop(): void {
    this.#progress?.unsubscribe();
    this.#logs?.unsubscribe();
    this.#states?.unsubscribe();
    this.actor.stop();
  }
}

export class RoundKernel {
  readonly #validator: JsonSchemaValidator;
  readonly #logger: Logger;
  readonly #actors: RoundActors;

  constructor(options: RoundKernelOptions = {}) {
    this.#validator = options.validator ?? new JsonSchemaValidator();
    this.#logger = options.logger ?? silentLogger;
    this.#actors = new RoundActors(options.xstatePath ?? 'public', this.#logger);
  }

  run(spec: RequestRoundSpec): RequestRoundOutcome | Promise<RequestRoundOutcome>;
  run(spec: TaskStepSpec): TaskStepOutcome | Promise<TaskStepOutcome>;
  run(spec: RoundSpec): RoundOutcome | Promise<RoundOutcome> {
    const round = new ActiveRound(spec, this.#restore(spec));
    let outcome: RoundOutcome | Promise<RoundOutcome>;
    try {
      round.actor.start();
      if (spec.mode === 'step') rearmTimers(round.actor, spec.timers, spec.wallNow);
      outcome = this.#feed(round) ?? this.#conclude(round);
    } catch (error) {
      round.stop();
      throw error;
    }
    if (outcome instanceof Promise) {
      return outcome.then(
        (later) => this.#end(round, later),
        (error: unknown) => {
          round.stop();
          throw error;
        },
      );
    }
    return this.#end(round, outcome);
  }

  #end(round: ActiveRound, outcome: RoundOutcome): RoundOutcome {
    round.stop();
    return outcome;
  }

  #restore(spec: RoundSpec): AnyActor {
    const handover = spec.mode === 'request' && spec.handover;
    const machine = handover ? withParkedActors(spec.machine) : spec.machine;
    const options =
      spec.snapshot === undefined ? { input: spec.input } : { snapshot: spec.snapshot, input: spec.input };
    const actor = this.#actors.create(machine, options, spec.mode === 'request' && !handover);
    if (spec.mode === 'step') registerRunScope(actor.system, spec.taskId);
    // XState rethrows an unobserved actor error from a timer, which would take the process down.
    actor.subscribe({ error: ignore });
    return actor;
  }

  /** Feeds the answers to last time's questions; a refusal (a malformed response) ends the round. */
  #feed(round: ActiveRound): RoundOutcome | undefined {
    const { spec } = round;
    if (spec.asked !== undefined && spec.responses !== undefined) {
      const refused = this.#deliver(round, spec.asked, spec.responses);
      if (refused) return refused;
    }
    round.deadline = performance.now() + spec.budgetMs;
    return undefined;
  }

  #deliver(round: ActiveRound, asked: readonly string[], responses: Record<string, unknown>): RoundOutcome | undefined {
    const { spec } = round;
    const options = spec.mode === 'step' ? { askedSchemas: spec.askedSchemas ?? {}, reaskMalformed: true } : undefined;
    try {
      Object.assign(round.retryReasons, deliverAnswers(round.actor, asked, responses, this.#validator, options));
    } catch (error) {
      // Only a request refuses: nothing has run yet, so the client may correct its answers.
      if (error instanceof EngineError) return { kind: 'refused', error };
      throw error;
    }
    return undefined;
  }

  #conclude(round: ActiveRound): RoundOutcome | Promise<RoundOutcome> {
    const settled = this.#settle(round);
    if (settled instanceof Promise) return settled.then((later) => this.#answerAhead(round, later));
    return this.#answerAhead(round, settled);
  }

  /**
   * A call without requestState may carry answers ahead: they answer the questions the flow asks
   * first (nothing else was asked), which saves the client a round trip.
   */
  #answerAhead(round: ActiveRound, settled: Settled): RoundOutcome | Promise<RoundOutcome> {
    const ahead = round.spec.mode === 'request' ? round.spec.answersAhead : undefined;
    if (!ahead || settled.kind !== 'waiting') return this.#outcomeOf(round, settled);
    const firstKeys = pendingQuestions(settled.snapshot).map((p) => p.question.key);
    const refused = this.#deliver(round, firstKeys, ahead);
    if (refused) return refused;
    const again = this.#settle(round);
    if (again instanceof Promise) return again.then((later) => this.#outcomeOf(round, later));
    return this.#outcomeOf(round, again);
  }

  /**
   * Settles, then lets each question the client cannot be asked take its onUnsupported path when
   * it has one; the machine may then ask something else, so settle again (bounded). An actor that
   * has already settled is answered without a promise, a timer or an abort listener.
   */
  #settle(round: ActiveRound): Settled | Promise<Settled> {
    const settled = settledNow(round.actor, round.deadline, round.rule);
    if (!settled) return this.#settleWithFallbacks(round, 0);
    if (settled.kind !== 'waiting' || !takeFallbacks(round.actor, settled.snapshot, round.spec.clientCapabilities)) {
      return settled;
    }
    return this.#settleWithFallbacks(round, 1);
  }

  async #settleWithFallbacks(round: ActiveRound, hopsTaken: number): Promise<Settled> {
    const { actor, spec, deadline, rule } = round;
    const signal = spec.signal && abortSignalOf(spec.signal);
    let settled = await settle(actor, Math.max(0, deadline - performance.now()), signal, rule);
    for (let hop = hopsTaken; settled.kind === 'waiting' && hop < MAX_FALLBACK_HOPS; hop++) {
      if (!takeFallbacks(actor, settled.snapshot, spec.clientCapabilities)) break;
      settled = await settle(actor, Math.max(0, deadline - performance.now()), signal, rule);
    }
    return settled;
  }

  #outcomeOf(round: ActiveRound, settled: Settled): RoundOutcome {
    const { spec } = round;
    switch (settled.kind) {
      case 'done':
        return { kind: 'complete', output: settled.output };
      case 'aborted':
        return { kind: 'aborted' };
      case 'waiting':
        return this.#ask(round, settled.snapshot);
      case 'sleeping':
      case 'handover':
        return this.#pause(round, settled.kind);
      case 'timeout': {
        if (spec.mode === 'step') {
          return failed('timeout', `${spec.name} did not finish a step within ${spec.budgetMs} ms.`);
        }
        const pending = settled.pending ? ` Still running: ${settled.pending}.` : '';
        return failed('timeout', `${spec.name} did not finish its work within ${spec.budgetMs} ms.${pending}`);
      }
      case 'blocked':
        this.#logger.error('flow_blocked', { ...spec.logFields, reason: settled.reason });
        return failed('blocked', `${spec.name} cannot pause: ${settled.reason}.`);
      case 'error': {
        const message = settled.error instanceof Error ? settled.error.message : String(settled.error);
        this.#logger.warn('flow_failed', { ...spec.logFields, message });
        return failed('tool_error', `${spec.name} failed: ${message}`);
      }
      case 'stuck':
        this.#logger.error('flow_stuck', { ...spec.logFields, state: settled.value });
        return { kind: 'refused', error: new EngineError('internal', STUCK_MESSAGE) };
    }
  }

  /** The questions a waiting machine asks, checked before anything is persisted. */
  #ask(round: ActiveRound, snapshot: AnyMachineSnapshot): RoundOutcome {
    const { spec, retryReasons } = round;
    const pageRefs = spec.mode === 'request' ? spec.pageRefs : undefined;
    const collected = collectQuestions(snapshot, spec.clientCapabilities, retryReasons, spec.name, pageRefs);
    if ('problem' in collected) {
      const { problem, stateId } = collected;
      this.#logger.error('bad_computed_question', { ...spec.logFields, state: stateId, problem });
      return failed('bad_question', problem);
    }
    if ('missing' in collected) {
      const error = new EngineError('missing_capability', MISSING_CAPABILITY_MESSAGE, {
        requiredCapabilities: collected.missing,
      });
      return { kind: 'refused', error };
    }
    if (spec.mode === 'request' && spec.round + 1 > spec.maxRounds) {
      return failed('round_limit', `${spec.name} asked for input ${spec.maxRounds} times without finishing.`);
    }
    const paused = this.#persist(round);
    if ('problem' in paused) return paused.failed;
    return {
      kind: 'asking',
      inputRequests: collected.inputRequests,
      keys: collected.keys,
      retryReasons,
      snapshot,
      persisted: paused.persisted,
      timers: spec.mode === 'step' ? sortedTimers(round.actor) : NO_TIMERS,
    };
  }

  /** Where a task continues from: a step sleeping on far timers, or a request where long work starts. */
  #pause(round: ActiveRound, kind: 'sleeping' | 'handover'): RoundOutcome {
    const paused = this.#persist(round);
    if ('problem' in paused) return paused.failed;
    const timers = round.spec.mode === 'step' ? sortedTimers(round.actor) : pendingTimers(round.actor);
    return { kind, persisted: paused.persisted, timers };
  }

  #persist(round: ActiveRound) {
    const paused = pausedSnapshot(round.actor);
    if ('persisted' in paused) return paused;
    const { spec } = round;
    this.#logger.error('context_unserializable', { ...spec.logFields, problem: paused.problem });
    return {
      problem: paused.problem,
      failed: failed('unpausable', `${spec.name} cannot pause: ${paused.problem}.`),
    };
  }
}

function failed(reason: FailureReason, message: string): RoundOutcome {
  return { kind: 'failed', reason, message };
}

/** A task's timers, nearest first: the queue is woken for the first. */
function sortedTimers(actor: AnyActor): TaskTimer[] {
  return pendingTimers(actor).sort((a, b) => a.dueAt - b.dueAt);
}

function ignore(): void {}
