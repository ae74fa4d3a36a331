/**
 * Advances a task by one step, on whichever instance runs the job: claim the task (one step at a
 * time), run the step in the round kernel (round/round-kernel.ts: restore the machine from the
 * task's last persisted snapshot, feed in what woke it (all answers to its questions, or timers
 * that came due), settle with durable timers, under an AbortSignal that `tasks/cancel` fires from
 * any instance), and record how it ended: a terminal status, or the next pause with its questions
 * and timers. A step cut short by a crash is run again from that same snapshot, so invoked work
 * runs at least once: effects take `idempotencyKey()` (task-authoring.ts).
 */
import { hostname } from 'node:os';
import type { AnyStateMachine } from 'xstate';
import type { JsonSchemaValidator } from '../json-schema-validator.js';
import { silentLogger, type Logger } from '../logger.js';
import type { CallToolResult } from '../mcp-shapes.js';
import type { ToolDefinition } from '../authoring/tool-definition.js';
import { finalToolResult, RoundKernel, toolError, type TaskStepOutcome, type TaskStepSpec } from '../round/index.js';
import type { TaskQueue } from './task-queue.js';
import { EngineError, type EngineErrorReason } from '../engine-error.js';
import {
  cancelledOutcome,
  expiredOutcome,
  failedOutcome,
  isTerminal,
  terminalFields,
  type AskedQuestion,
  type Outcome,
  type TaskRecord,
  type ToWireError,
} from './task-record.js';
import { answersOf, wireQuestions } from './task-questions.js';
import { lastInstance, withHistory, type StepEnd } from './task-history.js';
import { activeStates } from '../active-states.js';
import { isRedisUnavailable } from '../redis-target.js';
import { progressWriter } from './task-progress.js';
import { TaskLimitError } from './task-quotas.js';
import { holdsClaim, isFree, mayRunHanded, newClaim, releasedClaim, type StepRun } from './task-claims.js';
import { RunningSteps } from './running-steps.js';
import { withStart, writeStartLater } from './handed-start.js';
import type { TaskStore } from './task-store.js';
import { RoundTrace, type Telemetry } from '../../telemetry/index.js';
import { roundEnd } from '../round/index.js';
import { DEFAULT_VERSION_WAIT_MS, TaskVersions, type StepBasis } from './task-versions.js';

export interface TaskTools {
  get(name: string): ToolDefinition | undefined;
  checkResult(tool: ToolDefinition, result: CallToolResult): string | undefined;
}

export interface TaskRunnerOptions {
  store: TaskStore;
  queue: TaskQueue;
  tools: TaskTools;
  versionOf: (machine: AnyStateMachine) => string;
  validator: JsonSchemaValidator;
  /** Task timestamps and TTLs, in ms since the epoch. */
  clock?: () => number;
  /**
   * When timers and delayed jobs are due, in ms since the epoch: the wall clock (Date.now), as
   * XState stamps its delayed events and the queues run delayed jobs by it. Kept apart from
   * `clock`, which tests move to expire tasks without moving timers.
   */
  wallClock?: () => number;
  logger?: Logger;
  /** Longest one step may run (invoked work included) before the task ends with a tool error (1 h). */
  stepBudgetMs?: number;
  /** Timers due sooner than this are waited for inside the step instead of persisted (2 s). */
  inlineTimerMs?: number;
  toWireError: ToWireError;
  /** A span and metrics per step (telemetry/). */
  telemetry?: Telemetry;
  /**
   * How long a job whose task this build cannot run (its version neither kept nor migrated here,
   * or its tool not served) is left for a worker of another build, from the first look, before
   * the task fails (10 min: a rolling deploy). Wall-clock ms.
   */
  versionWaitMs?: number;
  /**
   * Names this instance in each task's timeline (task-history.ts): the server's instance id
   * (`Baton-Instance`, telemetry's `baton.instance.id`). Default `hostname:pid`.
   */
  instanceId?: string;
  /**
   * How long a run on a handed claim (task-claims.ts) runs before it writes its start alone (1 s):
   * most first steps reach their question sooner and write once; a longer one shows as running then.
   */
  handedStartWriteMs?: number;
}

/** How long a job that finds its task busy on another step waits before looking again. */
const BUSY_RETRY_MS = 500;

export class TaskRunner {
  readonly #o: Required<
    Omit<TaskRunnerOptions, 'logger' | 'clock' | 'wallClock' | 'validator' | 'telemetry' | 'instanceId'>
  >;
  readonly #instance: string;
  readonly #telemetry: Telemetry | undefined;
  readonly #clock: () => number;
  readonly #wallClock: () => number;
  readonly #logger: Logger;
  readonly #kernel: RoundKernel;
  /** Steps running in this process, so a cancel published by any instance can stop them. */
  readonly #running = new RunningSteps();
  readonly #stopListening: () => void;
  /** Which machine a step runs on: the record's version only (task-versions.ts). */
  readonly #versions: TaskVersions;

  constructor(options: TaskRunnerOptions) {
    this.#o = {
      stepBudgetMs: 60 * 60 * 1000,
      inlineTimerMs: 2000,
      versionWaitMs: DEFAULT_VERSION_WAIT_MS,
      handedStartWriteMs: 1000,
      ...options,
    };
    this.#clock = options.clock ?? Date.now;
    this.#instance = options.instanceId ?? `${hostname()}:${process.pid}`;
    this.#wallClock = options.wallClock ?? Date.now;
    this.#logger = options.logger ?? silentLogger;
    this.#versions = new TaskVersions({
      tools: options.tools,
      versionOf: options.versionOf,
      queue: options.queue,
      logger: this.#logger,
      wallClock: this.#wallClock,
      waitMs: this.#o.versionWaitMs,
    });
    this.#telemetry = options.telemetry;
    this.#kernel = new RoundKernel({ validator: options.validator, logger: this.#logger });
    this.#stopListening = options.store.listen((taskId, kind) => {
      if (kind === 'cancel') this.#running.abort(taskId);
    });
  }

  /**
   * Stops listening for cancels. Running steps are not aborted: an abort would end them as
   * cancelled. When the process exits under them, their jobs are recovered elsewhere as after a
   * crash, from the last persisted snapshot.
   */
  close(): void {
    this.#stopListening();
  }

  /**
   * Runs the job: a step of the task if it is due and free, under a claim of this run's own. The
   * same job may be run again while an earlier run of it still goes on, here or elsewhere (its
   * lock ran out): the later run takes the task, and the earlier one writes nothing more.
   * `attempt` counts the starts of the job (1 for the first), as the queue does.
   */
  async advance(taskId: string, jobId: string, attempt: number): Promise<void> {
    let run: StepRun | undefined;
    let startWrite: NodeJS.Timeout | undefined;
    try {
      const claimed = await this.#claim(taskId, jobId, attempt);
      if (!claimed) return;
      run = claimed.run;
      this.#running.add(run);
      if (run.handedAt !== undefined)
        startWrite = writeStartLater(
          {
            store: this.#o.store,
            clock: this.#clock,
            logger: this.#logger,
            instance: this.#instance,
            afterMs: this.#o.handedStartWriteMs,
          },
          run,
        );
      await this.#step(run, claimed.record);
    } catch (error) {
      // Written by the run while it holds its claim; before a claim, only if no step runs the task.
      const fail = (outcome: Outcome) => (run ? this.#finish(run, outcome) : this.#finishFree(taskId, jobId, outcome));
      if (error instanceof TaskLimitError) {
        // The record outgrew the size of one task (task-quotas.ts): a limit, said as such.
        this.#logger.warn('task_too_large', { taskId, message: error.message });
        return void (await fail(failedOutcome(error, this.#o.toWireError)).catch(() => {}));
      }
      if (isRedisUnavailable(error)) {
        // The store is away for now (a failover, a restart): the job runs again from the last
        // persisted snapshot once it is back (the queue retries it); failing the task would lose it.
        this.#logger.warn('task_step_interrupted', { taskId, error: String((error as Error)?.message ?? error) });
        throw error;
      }
      // A bug: fail the task visibly rather than leave it working for ever.
      this.#logger.error('task_step_failed', { taskId, error: String((error as Error)?.stack ?? error) });
      await fail(this.#failed('internal', 'Internal error')).catch(() => {});
      throw error;
    } finally {
      clearTimeout(startWrite);
      if (run) this.#running.remove(run);
    }
  }

  /** Claims the task for a new run of its step, or ends it (expired, cancelled) if no step runs it. */
  async #claim(
    taskId: string,
    jobId: string,
    attempt: number,
  ): Promise<{ run: StepRun; record: TaskRecord } | undefined> {
    const { store, queue } = this.#o;
    const record = await store.get(taskId);
    if (!record || isTerminal(record)) return undefined;
    const now = this.#clock();
    if (now >= record.createdAt + record.ttlMs) {
      // A step running elsewhere is stopped, and records the expiry itself.
      if (!isFree(record, jobId)) return void (await store.publish(taskId, 'cancel'));
      await this.#finishFree(taskId, jobId, expiredOutcome(record, this.#o.toWireError), 'expired');
      if (mayRunHanded(record, jobId)) await store.publish(taskId, 'cancel');
      return undefined;
    }
    if (!isFree(record, jobId)) {
      // Another job is running a step of this task: look again once it is likely done.
      const wallNow = this.#wallClock();
      await queue.schedule(taskId, { jobKey: `r${wallNow}`, runAt: wallNow + BUSY_RETRY_MS });
      return undefined;
    }
    if (record.cancelRequested) return void (await this.#finishFree(taskId, jobId, cancelledOutcome()));
    const due = record.timers.some((t) => t.dueAt <= this.#wallClock());
    // This job ran before and its instance died (or froze, or the store failed under it).
    const resumed = record.phase === 'running' || (attempt > 1 && record.runningJob === jobId);
    if (record.phase === 'idle' && !due) {
      // Woken early (clocks differ between instances): wait for the nearest timer again.
      const next = record.timers[0];
      if (next) await queue.schedule(taskId, { jobKey: `t${next.dueAt}.${this.#wallClock()}`, runAt: next.dueAt });
      return undefined;
    }
    // A version this build cannot run is left for a worker of another build, for a while.
    if (this.#versions.basis(record) === undefined && (await this.#versions.leave(record, jobId))) return undefined;
    // The claim stored with the task for this job's first start: taken as it is, nothing written.
    if (attempt === 1 && record.phase === 'queued' && record.runningJob === jobId && record.runningStep) {
      const run = {
        taskId,
        jobId,
        claim: record.runningStep,
        controller: new AbortController(),
        visited: new Set<string>(),
      };
      return { run: { ...run, handedAt: this.#clock() }, record };
    }
    const claim = newClaim();
    // `record` is what the checks above decided on: the claim is tried on it first (task-store.ts).
    const claimed = await store.update(
      taskId,
      (r) => {
        if (isTerminal(r) || !isFree(r, jobId)) return undefined;
        const now = this.#clock();
        // The run before this one of the same job stopped mid-step (its instance died or froze): it
        // lost its claim, said here by the run taking over, since the stale run may never write again.
        // A first run on a handed claim that never wrote its start lost it too, on no instance known.
        const earlier = r.phase === 'running' ? lastInstance(r.history) : undefined;
        const lost =
          r.phase === 'running' || (attempt > 1 && r.runningJob === jobId && r.runningStep)
            ? { history: withHistory(r, now, { e: 'end', x: 'lost', ...(earlier ? { i: earlier } : {}) }) }
            : {};
        const before = { ...r, ...lost };
        return {
          ...before,
          phase: 'running',
          runningJob: jobId,
          runningStep: claim,
          status: 'working',
          lastUpdatedAt: now,
          history: withHistory(before, now, { e: 'start', i: this.#instance }),
        };
      },
      // A resumed step changes nothing a client sees: the task was working before and still is.
      { seen: record, ...(resumed ? {} : { announce: 'changed' }) },
    );
    if (!claimed || !holdsClaim(claimed, claim)) return undefined;
    if (resumed) this.#logger.info('task_step_resumed', { taskId, jobId });
    return {
      run: { taskId, jobId, claim, controller: new AbortController(), visited: new Set() },
      record: claimed,
    };
  }

  async #step(run: StepRun, record: TaskRecord): Promise<void> {
    const tool = this.#o.tools.get(record.tool);
    if (!tool) return this.#finish(run, this.#failed('internal', `Tool ${record.tool} is not served by this build`));
    const basis = this.#versions.basis(record, true);
    if (!basis) {
      return this.#finish(
        run,
        this.#failed(
          'internal',
          `Tool ${tool.name} changed while this task was running, and no worker running version ${record.version} took it; start it again`,
        ),
      );
    }
    const { taskId } = run;
    const trace = this.#telemetry?.active
      ? RoundTrace.begin(this.#telemetry, {
          mode: 'step',
          method: 'tools/call',
          target: tool.name,
          taskId,
          createdBy: record.traceContext,
        })
      : undefined;
    const spec = this.#spec(run, record, tool, basis);
    const outcome = await (trace ? trace.run(() => this.#kernel.run(spec)) : this.#kernel.run(spec));
    trace?.end(roundEnd(outcome));
    await this.#record(run, record, tool, outcome, basis.version);
  }

  /** The step as the round kernel runs it: from the last snapshot, with every answer collected. */
  #spec(run: StepRun, record: TaskRecord, tool: ToolDefinition, basis: StepBasis): TaskStepSpec {
    const { taskId } = run;
    return {
      mode: 'step',
      name: tool.name,
      machine: basis.machine,
      input: record.arguments,
      snapshot: structuredClone(basis.snapshot),
      clientCapabilities: record.clientCapabilities,
      ...answersOf(record),
      budgetMs: this.#o.stepBudgetMs,
      signal: run.controller.signal,
      onProgress: progressWriter({
        store: this.#o.store,
        taskId,
        clock: this.#clock,
        wallClock: this.#wallClock,
        claim: run.claim,
      }),
      logFields: { taskId, tool: tool.name },
      onStates: (value) => {
        for (const state of activeStates(value)) run.visited.add(state);
      },
      taskId,
      timers: record.timers,
      wallNow: this.#wallClock(),
      inlineTimerMs: this.#o.inlineTimerMs,
    };
  }

  /** Writes how the step ended: a terminal status, or the pause it continues from. */
  #record(
    run: StepRun,
    record: TaskRecord,
    tool: ToolDefinition,
    outcome: TaskStepOutcome,
    version: string,
  ): Promise<void> {
    switch (outcome.kind) {
      case 'complete':
        return this.#finish(run, { status: 'completed', result: this.#result(tool, outcome.output) });
      case 'failed':
        // A snapshot that cannot be stored is Baton's failure to continue the task, not the tool's result.
        if (outcome.reason === 'unpausable') return this.#finish(run, this.#failed('internal', outcome.message));
        // A tool's failure is a result (tasks.md: `failed` is for JSON-RPC errors only).
        return this.#finish(run, { status: 'completed', result: { ...toolError(outcome.message) } });
      case 'refused':
        return this.#finish(run, failedOutcome(outcome.error, this.#o.toWireError));
      case 'aborted':
        // Stopped by tasks/cancel, or by the TTL running out under it.
        return this.#finish(
          run,
          this.#clock() >= record.createdAt + record.ttlMs
            ? expiredOutcome(record, this.#o.toWireError)
            : cancelledOutcome(),
        );
      case 'asking':
      case 'sleeping':
        return this.#pause(run, record, outcome, version);
    }
  }

  /** `version`: what the snapshot was made by (a migrated task is on the current version from here). */
  async #pause(
    run: StepRun,
    record: TaskRecord,
    pause: Extract<TaskStepOutcome, { kind: 'asking' | 'sleeping' }>,
    version: string,
  ): Promise<void> {
    const { taskId } = run;
    const { persisted: snapshot, timers } = pause;
    const askCounts = { ...record.askCounts };
    const asked: Record<string, AskedQuestion> =
      pause.kind === 'asking' ? wireQuestions(record, pause, askCounts, this.#clock()) : {};
    const status = pause.kind === 'asking' ? 'input_required' : 'working';
    let written: TaskRecord | undefined;
    // `record` is the claimed record: unless progress was written meanwhile, it is still current.
    const update = { seen: record, announce: 'changed' } as const;
    const stored = await this.#o.store.update(
      taskId,
      (r) => {
        written = undefined;
        if (isTerminal(r) || !holdsClaim(r, run.claim)) return undefined;
        const started = withStart(run, r, this.#instance);
        const now = this.#clock();
        const ended = (x: StepEnd, k?: string[]) => ({
          history: withHistory(started, now, { e: 'end', i: this.#instance, x, ...(k ? { k } : {}) }, run.visited),
        });
        const base = { ...started, ...releasedClaim(), phase: 'idle' as const, lastUpdatedAt: now };
        if (r.cancelRequested) {
          return (written = { ...base, ...terminalFields(), ...cancelledOutcome(), ...ended('cancelled') });
        }
        // At a question the last progress message would be stale: say what the task waits for.
        const waitingFor =
          status === 'input_required' ? { statusMessage: `Waiting for input: ${Object.keys(asked).join(', ')}` } : {};
        return (written = {
          ...base,
          status,
          snapshot,
          version,
          timers,
          asked,
          answers: {},
          answeredAt: undefined,
          askCounts,
          ...waitingFor,
          ...(status === 'input_required' ? ended('asked', Object.keys(asked)) : ended('timer')),
        });
      },
      update,
    );
    // A run that lost its claim leaves the task, its timers and their jobs to the run that took it.
    if (!written) return;
    this.#telemetry?.metrics?.taskStatus(written.status, written.tool);
    const next = stored && !isTerminal(stored) ? stored.timers[0] : undefined;
    if (next) await this.#o.queue.schedule(taskId, { jobKey: `t${next.dueAt}`, runAt: next.dueAt });
  }

  #result(tool: ToolDefinition, output: unknown): Record<string, unknown> {
    return {
      ...finalToolResult(tool, output, (checked, result) => this.#o.tools.checkResult(checked, result), this.#logger),
    };
  }

  /** `failed` for a protocol-level reason: the wire error through the protocol's seam. */
  #failed(reason: EngineErrorReason, message: string): Outcome {
    return failedOutcome(new EngineError(reason, message), this.#o.toWireError);
  }

  /**
   * Ends the task as the run that holds it: a run that lost its claim writes nothing (the run that
   * took over noted the loss in the timeline when it claimed the task).
   */
  async #finish(run: StepRun, outcome: Outcome): Promise<void> {
    const x: StepEnd = outcome.status === 'completed' || outcome.status === 'cancelled' ? outcome.status : 'failed';
    await this.#end(
      run.taskId,
      outcome,
      (r) => holdsClaim(r, run.claim),
      { e: 'end', i: this.#instance, x },
      run.visited,
      run,
    );
  }

  /** Ends a task no step is running (expired or cancelled before its step ran, or a step that could not start). */
  async #finishFree(
    taskId: string,
    jobId: string,
    outcome: Outcome,
    e: 'cancelled' | 'expired' | 'failed' = outcome.status === 'cancelled' ? 'cancelled' : 'failed',
  ): Promise<void> {
    await this.#end(taskId, outcome, (r) => isFree(r, jobId), { e });
  }

  /** Writes a terminal status (once: a terminal status never changes) and tells every instance. */
  async #end(
    taskId: string,
    outcome: Outcome,
    mayWrite: (record: TaskRecord) => boolean,
    entry: Parameters<typeof withHistory>[2],
    visited?: Iterable<string>,
    run?: StepRun,
  ): Promise<void> {
    let ended: TaskRecord | undefined;
    await this.#o.store.update(
      taskId,
      (r) => {
        ended = undefined;
        if (isTerminal(r) || !mayWrite(r)) return undefined;
        const started = run ? withStart(run, r, this.#instance) : r;
        const now = this.#clock();
        return (ended = {
          ...started,
          ...terminalFields(),
          ...outcome,
          ...releasedClaim(),
          phase: 'idle',
          lastUpdatedAt: now,
          history: withHistory(started, now, entry, visited),
        });
      },
      { announce: 'changed' },
    );
    if (!ended) return;
    this.#telemetry?.metrics?.taskStatus(ended.status, ended.tool);
  }
}
