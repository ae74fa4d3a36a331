/**
 * Which live tasks look stuck, for the console's stuck view and `baton tasks list --stuck`: each
 * rule names something an operator on call can act on, read from the task's summary alone (the
 * store holds no clock of its own, so "for how long" is measured from the task's last change).
 */
import type { TaskSummary } from './task-summary.js';
import { isTerminalStatus } from './task-record.js';

export type StuckReason =
  /** A step holds the task and has written nothing for longer than `runningMs`: its instance may be frozen or gone. */
  | 'running_unchanged'
  /**
   * Queued for longer than `queuedMs` with no start recorded: its job may be missing from the queue
   * or waiting behind others, or its first run stopped within its first second, before it wrote
   * its start (task-claims.ts; the queue runs that job again once its lock runs out).
   */
  | 'queued_unstarted'
  /** Waiting for a timer that fell due more than `timerGraceMs` ago: its timer job may be lost. */
  | 'timer_overdue'
  /** Past its ttl and still not terminal: no expiry sweep has reached it (no instance, or the store away). */
  | 'expired'
  /** Not changed for longer than `unchangedMs`, whatever it waits for. */
  | 'unchanged';

export interface StuckThresholds {
  runningMs: number;
  queuedMs: number;
  timerGraceMs: number;
  unchangedMs: number;
}

export const DEFAULT_STUCK_THRESHOLDS: StuckThresholds = {
  runningMs: 5 * 60_000,
  queuedMs: 60_000,
  timerGraceMs: 60_000,
  unchangedMs: 60 * 60_000,
};

export function stuckReasons(task: TaskSummary, now: number, thresholds: StuckThresholds): StuckReason[] {
  if (isTerminalStatus(task.status)) return [];
  const quiet = now - task.lastUpdatedAt;
  const reasons: StuckReason[] = [];
  if (task.phase === 'running' && quiet > thresholds.runningMs) reasons.push('running_unchanged');
  if (task.phase === 'queued' && quiet > thresholds.queuedMs) reasons.push('queued_unstarted');
  const next = task.timers[0];
  if (task.phase === 'idle' && next && now - next.dueAt > thresholds.timerGraceMs) reasons.push('timer_overdue');
  if (now >= task.expiresAt) reasons.push('expired');
  if (quiet > thresholds.unchangedMs) reasons.push('unchanged');
  return reasons;
}

/**
 * The quiet time below which no rule but `expired` can fire (a timer is set at the task's last
 * change, so an overdue one means a quiet task too): the stuck view reads only tasks changed
 * before `now` minus this, the oldest part of the index.
 */
export function shortestQuiet(thresholds: StuckThresholds): number {
  return Math.min(thresholds.runningMs, thresholds.queuedMs, thresholds.timerGraceMs, thresholds.unchangedMs);
}
