/**
 * A master's death with work in flight, on the Sentinel set: task clients create one-step tasks
 * and poll each until it ends (polling, not subscriptions/listen: a notification published while
 * Baton's subscriber reconnects is lost, a poll is simply retried), and single-use clients present
 * paused confirmations at a steady pace. A few seconds in, the master is SIGKILLed; the run goes on
 * until work has succeeded again after the promotion. Every event is stamped, and the figures are
 * read from the stamps afterwards:
 *
 * - the first task step completed after the kill: the earliest completion Baton recorded (the
 *   completed task's `lastUpdatedAt`) after it, and when a client first saw one;
 * - the first task created, and the first single-use round answered, among those sent after it;
 * - what the run lost: tasks that did not complete, and single-use rounds refused.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunningSentinelSet } from '../redis/index.js';
import type { HaClient } from './ha-client.js';
import { SINGLE_USE_TOOL, TASK_TOOL } from './ha-measure.js';

export interface FailoverFigures {
  /** From the SIGKILL until the sentinels named the promoted replica (asked every 100 ms). */
  promotionMs: number;
  /** From the SIGKILL to the earliest task step completed after it, as Baton recorded it. */
  firstStepMs: number | undefined;
  /** From the SIGKILL until a client first saw such a completion (its poll). */
  firstStepSeenMs: number | undefined;
  /** From the SIGKILL until the first task created by a call sent after it. */
  firstCreateMs: number | undefined;
  /** From the SIGKILL until the first single-use round answered, among those presented after it. */
  firstSingleUseMs: number | undefined;
  /** The last task step completed before the kill, ms before it. */
  lastStepBeforeMs: number | undefined;
  /** From the SIGKILL until the last task in flight at the kill (created before it, ended after it) ended. */
  lastInFlightMs: number | undefined;
  tasks: {
    created: number;
    completed: number;
    /** Ended otherwise than completed (failed, cancelled). */
    failed: number;
    /** Not ended (or gone) within a minute of their creation. */
    unfinished: number;
    /** Creations refused (while Redis was away), each tried again. */
    refusedCreates: number;
  };
  singleUse: { answered: number; refused: number };
}

interface Stamp {
  sentAt: number;
  doneAt: number;
  ok: boolean;
}

interface TaskEnd {
  status: string;
  /** When its creation was sent. */
  sentAt: number;
  /** When Baton recorded the end (`lastUpdatedAt`). */
  endedAt: number;
  /** When this client's poll first read it. */
  seenAt: number;
}

const TASK_CLIENTS = 8;
const SINGLE_USE_CLIENTS = 4;
/** Between two single-use rounds of one client: a steady trickle, so the paused states last. */
const SINGLE_USE_PACE_MS = 50;
const POLL_MS = 10;
const TASK_TIMEOUT_MS = 60_000;

export interface FailoverOptions {
  /** Work before the kill, in seconds. */
  before: number;
  /** How long to wait for every kind of work to succeed again after the kill. */
  maxAfterMs?: number;
}

export async function measureFailover(
  client: HaClient,
  set: RunningSentinelSet,
  options: FailoverOptions,
): Promise<FailoverFigures> {
  const states: string[] = [];
  while (states.length < 4000) {
    states.push(...(await Promise.all(Array.from({ length: 16 }, () => client.ask(SINGLE_USE_TOOL)))));
  }
  const creates: Stamp[] = [];
  const rounds: Stamp[] = [];
  const ends: TaskEnd[] = [];
  let unfinished = 0;
  let stopping = false;

  const followTask = async (taskId: string, createdAt: number) => {
    for (;;) {
      const task = await client.getTask(taskId).catch(() => undefined);
      if (task && ['completed', 'failed', 'cancelled'].includes(task.status)) {
        ends.push({
          status: task.status,
          sentAt: createdAt,
          endedAt: Date.parse(task.lastUpdatedAt),
          seenAt: Date.now(),
        });
        return;
      }
      if (Date.now() - createdAt > TASK_TIMEOUT_MS) {
        unfinished += 1;
        return;
      }
      await sleep(POLL_MS);
    }
  };
  const taskWorker = async () => {
    while (!stopping) {
      const sentAt = Date.now();
      const taskId = await client.createTask(TASK_TOOL).catch(() => undefined);
      creates.push({ sentAt, doneAt: Date.now(), ok: taskId !== undefined });
      if (taskId === undefined) await sleep(50);
      else await followTask(taskId, sentAt);
    }
  };
  const singleUseWorker = async () => {
    while (!stopping) {
      const state = states.pop();
      if (state === undefined) return;
      const sentAt = Date.now();
      const ok = await client.confirm(SINGLE_USE_TOOL, state, 5000).catch(() => false);
      rounds.push({ sentAt, doneAt: Date.now(), ok });
      await sleep(SINGLE_USE_PACE_MS);
    }
  };

  const workers = [
    ...Array.from({ length: TASK_CLIENTS }, taskWorker),
    ...Array.from({ length: SINGLE_USE_CLIENTS }, singleUseWorker),
  ];
  await sleep(options.before * 1000);
  const { killedAt, promotionMs } = await set.killMaster();
  // Until a task step, a creation and a single-use round have each succeeded after the kill, and a second more.
  const deadline = killedAt + (options.maxAfterMs ?? 45_000);
  const recovered = () =>
    ends.some((end) => end.status === 'completed' && end.endedAt > killedAt) &&
    creates.some((stamp) => stamp.ok && stamp.sentAt > killedAt) &&
    rounds.some((stamp) => stamp.ok && stamp.sentAt > killedAt);
  while (!recovered() && Date.now() < deadline) await sleep(50);
  await sleep(1000);
  stopping = true;
  await Promise.all(workers);

  const after = (at: number) => at > killedAt;
  const earliest = (values: number[]) =>
    values.length > 0 ? values.reduce((a, b) => Math.min(a, b)) - killedAt : undefined;
  const latest = (values: number[]) =>
    values.length > 0 ? values.reduce((a, b) => Math.max(a, b)) - killedAt : undefined;
  const completed = ends.filter((end) => end.status === 'completed');
  const completedAfter = completed.filter((end) => after(end.endedAt));
  const before = completed.filter((end) => !after(end.endedAt)).map((end) => end.endedAt);
  return {
    promotionMs,
    firstStepMs: earliest(completedAfter.map((end) => end.endedAt)),
    firstStepSeenMs: earliest(completedAfter.map((end) => end.seenAt)),
    firstCreateMs: earliest(creates.filter((s) => s.ok && after(s.sentAt)).map((s) => s.doneAt)),
    firstSingleUseMs: earliest(rounds.filter((s) => s.ok && after(s.sentAt)).map((s) => s.doneAt)),
    lastStepBeforeMs: before.length > 0 ? killedAt - before.reduce((a, b) => Math.max(a, b)) : undefined,
    lastInFlightMs: latest(ends.filter((end) => !after(end.sentAt) && after(end.endedAt)).map((end) => end.endedAt)),
    tasks: {
      created: creates.filter((s) => s.ok).length,
      completed: completed.length,
      failed: ends.length - completed.length,
      unfinished,
      refusedCreates: creates.filter((s) => !s.ok).length,
    },
    singleUse: { answered: rounds.filter((s) => s.ok).length, refused: rounds.filter((s) => !s.ok).length },
  };
}
