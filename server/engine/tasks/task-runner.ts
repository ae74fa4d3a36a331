/**
 * Advances a task by one step, on whichever instance runs the job: claim the task (one step at a
 * time), run the step in the round kernel (round/round-kernel.ts: restore the machine from the
 * task's last persisted snapshot, feed in what woke it (all answers to its questions, or timers
 * that came due), settle with durable timers, under an AbortSignal that `tasks/cancel` fires from
 * any instance), and record how it ended: a terminal status, or the next pause with its questions
 * and timers. A step cut short by a crash is run again from that same snapshot, so invoked work
 * runs at least once: effects take `idempotencyKey()` (task-authoring.ts).
 */
import type { AnyStateMachine } from 'xstate';
import type { JsonSchemaValidator } from '../json-schema-validator.js';
import { silentLogger, type Logger } from '../logger.js';
import type { CallToolResult } from '../mcp-shapes.js';
import type { ToolDefinition } from '../authoring/tool-definition.js';
import { RoundKernel, toolError, toToolResult, type TaskStepOutcome, type TaskStepSpec } from '../round/index.js';
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
import { progressWriter } from './task-progress.js';
import { TaskLimitError } from './task-quotas.js';
import { holdsClaim, newClaim, releasedClaim } from './task-claims.js';
import type { TaskStore } from './task-store.js';
import { RoundTrace, type Telemetry } from '../../telemetry/index.js';
import { roundEnd } from '../round/index.js';

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
}

/** How long a job that finds its task busy on another step waits before looking again. */
const BUSY_RETRY_MS = 500;

export class TaskRunner {
  readonly #o: Required<Omit<TaskRunnerOptions, 'logger' | 'clock' | 'wallClock' | 'validator' | 'telemetry'>>;
  readonly #telemetry: Telemetry | undefined;
  readonly #clock: () => number;
  readonly #wallClock: () => number;
  readonly #logger: Logger;
  readonly #kernel: RoundKernel;
  /** Steps running in this process, so a cancel published by any instance can stop them. */
  readonly #running = new Map<string, AbortController>();
  /** The claim of each step running here (task-claims.ts): a step that lost it writes nothing. */
  readonly #claims = new Map<string, string>();
  readonly #stopListening: () => void;

  constructor(options: TaskRunnerOptions) {
    this.#o = { stepBudgetMs: 60 * 60 * 1000, inlineTimerMs: 2000, ...options };
    this.#clock = options.clock ?? Date.now;
    this.#wallClock = options.wallClock ?? Date.now;
    this.#logger = options.logger ?? silentLogger;
    this.#telemetry = options.telemetry;
    this.#kernel = new RoundKernel({ validator: options.validator, logger: this.#logger });
    this.#stopListening = options.store.listen((taskId, kind) => {
      if (kind === 'cancel') this.#running.get(taskId)?.abort();
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

  async advance(taskId: string, jobId: string): Promise<void> {
    try {
      await this.#advance(taskId, jobId);
    } catch (error) {
      if (error instanceof TaskLimitError) {
        // The record outgrew the size of one task (task-quotas.ts): a limit, said as such.
        this.#logger.warn('task_too_large', { taskId, message: error.message });
        return void (await this.#finish(taskId, failedOutcome(error, this.#o.toWireError)).catch(() => {}));
      }
      // A bug or a store outage: fail the task visibly rather than leave it working for ever.
      this.#logger.error('task_step_failed', { taskId, error: String((error as Error)?.stack ?? error) });
      await this.#finish(taskId, this.#failed('internal', 'Internal error')).catch(() => {});
      throw error;
    }
  }

  async #advance(taskId: string, jobId: string): Promise<void> {
    const { store, queue } = this.#o;
    const record = await store.get(taskId);
    if (!record || isTerminal(record)) return;
    const now = this.#clock();
    if (now >= record.createdAt + record.ttlMs) {
      if (record.phase === 'running' && record.runningJob !== jobId) {
        await store.publish(taskId, 'cancel');
        return;
      }
      return void (await this.#finish(taskId, expiredOutcome(record, this.#o.toWireError)));
    }
    if (record.phase === 'running' && record.runningJob !== jobId) {
      // Another job is running a step of this task: look again once it is likely done.
      const wallNow = this.#wallClock();
      await queue.schedule(taskId, { jobKey: `r${wallNow}`, runAt: wallNow + BUSY_RETRY_MS });
      return;
    }
    if (record.cancelRequested) return void (await this.#finish(taskId, cancelledOutcome()));
    const due = record.timers.some((t) => t.dueAt <= this.#wallClock());
    const resumed = record.phase === 'running'; // this job ran before and its instance died
    if (record.phase === 'idle' && !due) {
      // Woken early (clocks differ between instances): wait for the nearest timer again.
      const next = record.timers[0];
      if (next) await queue.schedule(taskId, { jobKey: `t${next.dueAt}.${this.#wallClock()}`, runAt: next.dueAt });
      return;
    }
    const claim = newClaim();
    const claimed = await store.update(taskId, (r) =>
      isTerminal(r) || (r.phase === 'running' && r.runningJob !== jobId)
        ? undefined
        : {
            ...r,
            phase: 'running',
            runningJob: jobId,
            runningStep: claim,
            status: 'working',
            lastUpdatedAt: this.#clock(),
          },
    );
    if (!claimed || claimed.runningStep !== claim) return;
    if (resumed) this.#logger.info('task_step_resumed', { taskId, jobId });
    else await store.publish(taskId, 'changed');
    this.#claims.set(taskId, claim);
    try {
      await this.#step(claimed);
    } finally {
      this.#claims.delete(taskId);
    }
  }

  async #step(record: TaskRecord): Promise<void> {
    const { taskId } = record;
    const tool = this.#o.tools.get(record.tool);
    if (!tool) return this.#finish(taskId, this.#failed('internal', `Tool ${record.tool} is no longer served`));
    if (this.#o.versionOf(tool.machine) !== record.version) {
      // Restarting would repeat the effects already done; a task cannot move to a changed machine.
      return this.#finish(
        taskId,
        this.#failed('internal', `Tool ${tool.name} changed while this task was running; start it again`),
      );
    }
    const controller = new AbortController();
    this.#running.set(taskId, controller);
    const trace = this.#telemetry?.active
      ? RoundTrace.begin(this.#telemetry, {
          mode: 'step',
          method: 'tools/call',
          target: tool.name,
          taskId,
          createdBy: record.traceContext,
        })
      : undefined;
    try {
      const spec = this.#spec(record, tool, controller.signal);
      const outcome = await (trace ? trace.run(() => this.#kernel.run(spec)) : this.#kernel.run(spec));
      trace?.end(roundEnd(outcome));
      await this.#record(record, tool, outcome);
    } finally {
      this.#running.delete(taskId);
    }
  }

  /** The step as the round kernel runs it: from the last snapshot, with every answer collected. */
  #spec(record: TaskRecord, tool: ToolDefinition, signal: AbortSignal): TaskStepSpec {
    const { taskId } = record;
    return {
      mode: 'step',
      name: tool.name,
      machine: tool.machine,
      input: record.arguments,
      snapshot: structuredClone(record.snapshot),
      clientCapabilities: record.clientCapabilities,
      ...answersOf(record),
      budgetMs: this.#o.stepBudgetMs,
      signal,
      onProgress: progressWriter({
        store: this.#o.store,
        taskId,
        clock: this.#clock,
        wallClock: this.#wallClock,
        holds: (r) => holdsClaim(r, this.#claims.get(taskId)),
      }),
      logFields: { taskId, tool: tool.name },
      taskId,
      timers: record.timers,
      wallNow: this.#wallClock(),
      inlineTimerMs: this.#o.inlineTimerMs,
    };
  }

  /** Writes how the step ended: a terminal status, or the pause it continues from. */
  #record(record: TaskRecord, tool: ToolDefinition, outcome: TaskStepOutcome): Promise<void> {
    const { taskId } = record;
    switch (outcome.kind) {
      case 'complete':
        return this.#finish(taskId, { status: 'completed', result: this.#result(tool, outcome.output) });
      case 'failed':
        // A snapshot that cannot be stored is Baton's failure to continue the task, not the tool's result.
        if (outcome.reason === 'unpausable') return this.#finish(taskId, this.#failed('internal', outcome.message));
        // A tool's failure is a result (tasks.md: `failed` is for JSON-RPC errors only).
        return this.#finish(taskId, { status: 'completed', result: { ...toolError(outcome.message) } });
      case 'refused':
        return this.#finish(taskId, failedOutcome(outcome.error, this.#o.toWireError));
      case 'aborted':
        // Stopped by tasks/cancel, or by the TTL running out under it.
        return this.#finish(
          taskId,
          this.#clock() >= record.createdAt + record.ttlMs
            ? expiredOutcome(record, this.#o.toWireError)
            : cancelledOutcome(),
        );
      case 'asking':
      case 'sleeping':
        return this.#pause(record, outcome);
    }
  }

  async #pause(record: TaskRecord, pause: Extract<TaskStepOutcome, { kind: 'asking' | 'sleeping' }>): Promise<void> {
    const { taskId } = record;
    const { persisted: snapshot, timers } = pause;
    const askCounts = { ...record.askCounts };
    const asked: Record<string, AskedQuestion> = pause.kind === 'asking' ? wireQuestions(record, pause, askCounts) : {};
    const status = pause.kind === 'asking' ? 'input_required' : 'working';
    let written: TaskRecord | undefined;
    const stored = await this.#o.store.update(taskId, (r) => {
      written = undefined;
      if (isTerminal(r) || !holdsClaim(r, this.#claims.get(r.taskId))) return undefined;
      const base = { ...r, ...releasedClaim(), phase: 'idle' as const, lastUpdatedAt: this.#clock() };
      if (r.cancelRequested) return (written = { ...base, ...terminalFields(), ...cancelledOutcome() });
      // At a question the last progress message would be stale: say what the task waits for.
      const waitingFor =
        status === 'input_required' ? { statusMessage: `Waiting for input: ${Object.keys(asked).join(', ')}` } : {};
      return (written = { ...base, status, snapshot, timers, asked, answers: {}, askCounts, ...waitingFor });
    });
    if (written) this.#telemetry?.metrics?.taskStatus(written.status, written.tool);
    await this.#o.store.publish(taskId, 'changed');
    const next = stored && !isTerminal(stored) ? stored.timers[0] : undefined;
    if (next) await this.#o.queue.schedule(taskId, { jobKey: `t${next.dueAt}`, runAt: next.dueAt });
  }

  #result(tool: ToolDefinition, output: unknown): Record<string, unknown> {
    const result = toToolResult(output, tool.outputSchema !== undefined);
    const broken = this.#o.tools.checkResult(tool, result);
    if (!broken) return { ...result };
    this.#logger.warn('tool_output_invalid', { tool: tool.name, problem: broken });
    return { ...toolError(`Tool ${tool.name} produced a result that does not match its outputSchema: ${broken}`) };
  }

  /** `failed` for a protocol-level reason: the wire error through the protocol's seam. */
  #failed(reason: EngineErrorReason, message: string): Outcome {
    return failedOutcome(new EngineError(reason, message), this.#o.toWireError);
  }

  /** Writes a terminal status (once: a terminal status never changes) and tells every instance. */
  async #finish(taskId: string, outcome: Outcome): Promise<void> {
    let ended: TaskRecord | undefined;
    await this.#o.store.update(taskId, (r) =>
      isTerminal(r) || !holdsClaim(r, this.#claims.get(taskId))
        ? (ended = undefined)
        : (ended = {
            ...r,
            ...terminalFields(),
            ...outcome,
            ...releasedClaim(),
            phase: 'idle',
            lastUpdatedAt: this.#clock(),
          }),
    );
    if (ended) this.#telemetry?.metrics?.taskStatus(ended.status, ended.tool);
    await this.#o.store.publish(taskId, 'changed');
  }
}
