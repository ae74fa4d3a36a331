/**
 * Advances a task by one step, on whichever instance runs the job: restore the machine from the
 * task's last persisted snapshot, feed in what woke it (all answers to its questions, or timers
 * that came due), run until it settles (work included, with an AbortSignal that `tasks/cancel`
 * fires from any instance), and persist the next settle point. A step cut short by a crash is run
 * again from that same snapshot, so invoked work runs at least once: effects take
 * `idempotencyKey()` (task-authoring.ts).
 */
import { createActor, type AnyActor, type AnyEventObject, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import { MAX_FALLBACK_HOPS, takeFallbacks } from '../flow/unsupported-fallbacks.js';
import { interpretAnswer } from '../flow/answers.js';
import { PROGRESS_EVENT } from '../authoring/input-states.js';
import type { JsonSchemaValidator } from '../json-schema-validator.js';
import { silentLogger, type Logger } from '../logger.js';
import type { CallToolResult, ClientCapabilities, InputRequest } from '../mcp-shapes.js';
import {
  clientSupports,
  mergeCapabilities,
  pendingQuestions,
  requiredCapability,
  toInputRequest,
} from '../flow/pending-questions.js';
import { persistAtQuestion } from '../flow/pause-check.js';
import type { ToolDefinition } from '../authoring/tool-definition.js';
import { toolError, toToolResult } from '../flow/tool-result.js';
import { askedQuestionProblem } from '../flow/form-schema-check.js';
import { pendingTimers, rearmTimers, type TaskTimer } from './scheduled-timers.js';
import { registerRunScope } from '../authoring/task-authoring.js';
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
import { settleStep, type StepSettled } from './task-settle.js';
import { TaskLimitError } from './task-quotas.js';
import { holdsClaim, newClaim, releasedClaim } from './task-claims.js';
import type { TaskStore } from './task-store.js';

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
  clock?: () => number;
  logger?: Logger;
  /** Longest one step may run (invoked work included) before the task ends with a tool error (1 h). */
  stepBudgetMs?: number;
  /** Timers due sooner than this are waited for inside the step instead of persisted (2 s). */
  inlineTimerMs?: number;
  toWireError: ToWireError;
}

/** How long a job that finds its task busy on another step waits before looking again. */
const BUSY_RETRY_MS = 500;
const PROGRESS_WRITE_INTERVAL_MS = 500;

export class TaskRunner {
  readonly #o: Required<Omit<TaskRunnerOptions, 'logger' | 'clock'>>;
  readonly #clock: () => number;
  readonly #logger: Logger;
  /** Steps running in this process, so a cancel published by any instance can stop them. */
  readonly #running = new Map<string, AbortController>();
  /** The claim of each step running here (task-claims.ts): a step that lost it writes nothing. */
  readonly #claims = new Map<string, string>();
  readonly #stopListening: () => void;

  constructor(options: TaskRunnerOptions) {
    this.#o = { stepBudgetMs: 60 * 60 * 1000, inlineTimerMs: 2000, ...options };
    this.#clock = options.clock ?? Date.now;
    this.#logger = options.logger ?? silentLogger;
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
      await queue.schedule(taskId, { jobKey: `r${Date.now()}`, runAt: Date.now() + BUSY_RETRY_MS });
      return;
    }
    if (record.cancelRequested) return void (await this.#finish(taskId, cancelledOutcome()));
    // Timers are wall-clock time, as XState sets them; the injected clock is for timestamps and TTLs.
    const due = record.timers.some((t) => t.dueAt <= Date.now());
    const resumed = record.phase === 'running'; // this job ran before and its instance died
    if (record.phase === 'idle' && !due) {
      // Woken early (clocks differ between instances): wait for the nearest timer again.
      const next = record.timers[0];
      if (next) await queue.schedule(taskId, { jobKey: `t${next.dueAt}.${Date.now()}`, runAt: next.dueAt });
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
    const actor = createActor(tool.machine, {
      snapshot: structuredClone(record.snapshot) as never,
      input: record.arguments,
    });
    registerRunScope(actor.system, taskId);
    actor.subscribe({ error: () => {} });
    const controller = new AbortController();
    this.#running.set(taskId, controller);
    const progress = this.#reportProgress(actor, taskId);
    try {
      actor.start();
      rearmTimers(actor, record.timers, Date.now());
      const retryReasons = this.#deliver(actor, record);
      let settled = await this.#settle(actor, controller.signal);
      for (let hop = 0; settled.kind === 'waiting' && hop < MAX_FALLBACK_HOPS; hop++) {
        if (!takeFallbacks(actor, settled.snapshot, record.clientCapabilities)) break;
        settled = await this.#settle(actor, controller.signal);
      }
      const timers = pendingTimers(actor).sort((a, b) => a.dueAt - b.dueAt);
      await this.#conclude(record, tool, actor, settled, timers, retryReasons);
    } finally {
      progress.unsubscribe();
      this.#running.delete(taskId);
      actor.stop();
    }
  }

  #settle(actor: AnyActor, signal: AbortSignal): Promise<StepSettled> {
    return settleStep(actor, {
      budgetMs: this.#o.stepBudgetMs,
      signal,
      now: Date.now,
      inlineTimerMs: this.#o.inlineTimerMs,
    });
  }

  /** Sends every answer the task collected, in the order its questions were asked. */
  #deliver(actor: AnyActor, record: TaskRecord): Record<string, string> {
    const retryReasons: Record<string, string> = {};
    for (const [wireKey, asked] of Object.entries(record.asked)) {
      if (!Object.hasOwn(record.answers, wireKey)) continue;
      const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
      const pending = pendingQuestions(snapshot).find((p) => p.question.key === asked.questionKey);
      // An earlier answer may have moved the machine past this question (e.g. a decline).
      if (!pending) continue;
      const schema = pending.question.kind === 'form' ? (asked.request.params?.requestedSchema as object) : undefined;
      let outcome;
      try {
        outcome = interpretAnswer(pending.question, schema, record.answers[wireKey], this.#o.validator);
      } catch {
        // A malformed answer cannot be refused to the client any more (the update was acked): ask again.
        outcome = { retryReason: 'Your last answer could not be read.' };
      }
      if ('retryReason' in outcome) retryReasons[asked.questionKey] = outcome.retryReason;
      else if (snapshot.can(outcome.event)) actor.send(outcome.event);
      else retryReasons[asked.questionKey] = 'Your last answer was not accepted.';
    }
    return retryReasons;
  }

  async #conclude(
    record: TaskRecord,
    tool: ToolDefinition,
    actor: AnyActor,
    settled: StepSettled,
    timers: TaskTimer[],
    retryReasons: Record<string, string>,
  ): Promise<void> {
    const { taskId } = record;
    switch (settled.kind) {
      case 'done':
        return this.#finish(taskId, { status: 'completed', result: this.#result(tool, settled.output) });
      case 'error': {
        const message = settled.error instanceof Error ? settled.error.message : String(settled.error);
        this.#logger.warn('task_tool_failed', { taskId, tool: tool.name, message });
        // A tool's failure is a result (tasks.md: `failed` is for JSON-RPC errors only).
        return this.#finish(taskId, {
          status: 'completed',
          result: { ...toolError(`${tool.name} failed: ${message}`) },
        });
      }
      case 'timeout':
        return this.#finish(taskId, {
          status: 'completed',
          result: { ...toolError(`${tool.name} did not finish a step within ${this.#o.stepBudgetMs} ms.`) },
        });
      case 'aborted':
        // Stopped by tasks/cancel, or by the TTL running out under it.
        return this.#finish(
          taskId,
          this.#clock() >= record.createdAt + record.ttlMs
            ? expiredOutcome(record, this.#o.toWireError)
            : cancelledOutcome(),
        );
      case 'stuck':
        this.#logger.error('task_stuck', { taskId, state: settled.value });
        return this.#finish(
          taskId,
          this.#failed('internal', 'The tool stopped in a state that neither finishes nor asks for input'),
        );
      case 'sleeping':
      case 'waiting':
        return this.#pause(record, tool, actor, settled, timers, retryReasons);
    }
  }

  async #pause(
    record: TaskRecord,
    tool: ToolDefinition,
    actor: AnyActor,
    settled: Extract<StepSettled, { kind: 'sleeping' | 'waiting' }>,
    timers: TaskTimer[],
    retryReasons: Record<string, string>,
  ): Promise<void> {
    const paused = persistAtQuestion(actor);
    if ('problem' in paused) {
      return this.#finish(record.taskId, this.#failed('internal', `${tool.name} cannot pause: ${paused.problem}`));
    }
    const snapshot = paused.persisted;
    let asked: Record<string, AskedQuestion> = {};
    const askCounts = { ...record.askCounts };
    if (settled.kind === 'waiting') {
      const questions = this.#questions(record, settled.snapshot, retryReasons, askCounts);
      if ('problem' in questions) {
        this.#logger.error('bad_computed_question', { taskId: record.taskId, problem: questions.problem });
        return this.#finish(record.taskId, { status: 'completed', result: { ...toolError(questions.problem) } });
      }
      if ('missing' in questions) {
        const error = new EngineError(
          'missing_capability',
          'The tool needs input of a kind this client did not declare',
          {
            requiredCapabilities: questions.missing,
          },
        );
        return this.#finish(record.taskId, failedOutcome(error, this.#o.toWireError));
      }
      asked = questions.asked;
    }
    const status = settled.kind === 'waiting' ? 'input_required' : 'working';
    const stored = await this.#o.store.update(record.taskId, (r) => {
      if (isTerminal(r) || !holdsClaim(r, this.#claims.get(r.taskId))) return undefined;
      const base = { ...r, ...releasedClaim(), phase: 'idle' as const, lastUpdatedAt: this.#clock() };
      if (r.cancelRequested) return { ...base, ...terminalFields(), ...cancelledOutcome() };
      // At a question the last progress message would be stale: say what the task waits for.
      const waitingFor =
        status === 'input_required' ? { statusMessage: `Waiting for input: ${Object.keys(asked).join(', ')}` } : {};
      return { ...base, status, snapshot, timers, asked, answers: {}, askCounts, ...waitingFor };
    });
    await this.#o.store.publish(record.taskId, 'changed');
    const next = stored && !isTerminal(stored) ? stored.timers[0] : undefined;
    if (next) await this.#o.queue.schedule(record.taskId, { jobKey: `t${next.dueAt}`, runAt: next.dueAt });
  }

  /**
   * The questions the task waits on, each under a wire key unique over the task's life
   * (tasks.md, MUST): a question still waiting for its first answer keeps its key; one asked again
   * (answered, re-asked after a rejected answer, or entered anew) gets `<key>.<n>`.
   */
  #questions(
    record: TaskRecord,
    snapshot: AnyMachineSnapshot,
    retryReasons: Record<string, string>,
    askCounts: Record<string, number>,
  ): { asked: Record<string, AskedQuestion> } | { missing: ClientCapabilities } | { problem: string } {
    const asked: Record<string, AskedQuestion> = {};
    let missing: ClientCapabilities | undefined;
    const unanswered = new Map<string, string>();
    for (const [wireKey, q] of Object.entries(record.asked)) {
      if (!Object.hasOwn(record.answers, wireKey)) unanswered.set(q.questionKey, wireKey);
    }
    for (const { question, stateId } of pendingQuestions(snapshot)) {
      const request: InputRequest = toInputRequest(question, snapshot.context, retryReasons[question.key]);
      // A schema computed from context is checked as it is asked (form-schema-check.ts).
      const problem = askedQuestionProblem(question, request, () => `${record.tool}, state "${stateId}"`);
      if (problem) return { problem };
      if (!clientSupports(question, request, record.clientCapabilities)) {
        missing = mergeCapabilities(missing ?? {}, requiredCapability(question, request));
        continue;
      }
      const kept = retryReasons[question.key] === undefined ? unanswered.get(question.key) : undefined;
      if (kept) {
        asked[kept] = record.asked[kept]!;
        continue;
      }
      const count = (askCounts[question.key] ?? 0) + 1;
      askCounts[question.key] = count;
      asked[count === 1 ? question.key : `${question.key}.${count}`] = { questionKey: question.key, request };
    }
    return missing ? { missing } : { asked };
  }

  #result(tool: ToolDefinition, output: unknown): Record<string, unknown> {
    const result = toToolResult(output, tool.outputSchema !== undefined);
    const broken = this.#o.tools.checkResult(tool, result);
    if (!broken) return { ...result };
    this.#logger.warn('tool_output_invalid', { tool: tool.name, problem: broken });
    return { ...toolError(`Tool ${tool.name} produced a result that does not match its outputSchema: ${broken}`) };
  }

  #reportProgress(actor: AnyActor, taskId: string) {
    let lastWrite = 0;
    let last = -Infinity;
    return actor.on(PROGRESS_EVENT, (event: AnyEventObject) => {
      const { progress, total, message } = event as { progress?: unknown; total?: unknown; message?: unknown };
      if (typeof progress !== 'number' || progress <= last) return;
      last = progress;
      // Progress can come many times a second; the task record is written at most twice a second.
      if (Date.now() - lastWrite < PROGRESS_WRITE_INTERVAL_MS && (typeof total !== 'number' || progress < total))
        return;
      lastWrite = Date.now();
      const now = this.#clock();
      const statusMessage =
        typeof message === 'string' ? message : typeof total === 'number' ? `${progress} of ${total}` : `${progress}`;
      void this.#o.store
        .update(taskId, (r) =>
          isTerminal(r) || !holdsClaim(r, this.#claims.get(taskId))
            ? undefined
            : { ...r, statusMessage, lastUpdatedAt: now },
        )
        .then(() => this.#o.store.publish(taskId, 'changed'))
        .catch(() => {});
    });
  }

  /** `failed` for a protocol-level reason: the wire error through the protocol's seam. */
  #failed(reason: EngineErrorReason, message: string): Outcome {
    return failedOutcome(new EngineError(reason, message), this.#o.toWireError);
  }

  /** Writes a terminal status (once: a terminal status never changes) and tells every instance. */
  async #finish(taskId: string, outcome: Outcome): Promise<void> {
    await this.#o.store.update(taskId, (r) =>
      isTerminal(r) || !holdsClaim(r, this.#claims.get(taskId))
        ? undefined
        : { ...r, ...terminalFields(), ...outcome, ...releasedClaim(), phase: 'idle', lastUpdatedAt: this.#clock() },
    );
    await this.#o.store.publish(taskId, 'changed');
  }
}
