/**
 * What happened to a task, for the console's timeline (docs/console.md, "A task's page"): it was
 * created; each step started on an instance and ended (asking questions by key, waiting on a
 * timer, completed, failed, cancelled, or having lost its claim to another run); answers came in
 * (keys only); it was cancelled or expired while no step ran. Beside it, the states the task has
 * been in, for the diagram to mark.
 *
 * It is kept in the record, so every byte is paid per task in the store (issue 44): entries are
 * short-keyed, their time is ms after the task's creation, at most MAX_HISTORY_ENTRIES are kept
 * (older ones are dropped and counted), and the states visited are capped. Never a value: keys,
 * times, instance ids and state names (from the machine) only. Records stored before the history
 * existed have none, and read as such.
 */
import { activeStates } from '../active-states.js';

/** Entries kept per task; older ones are dropped and counted in `dropped`. */
export const MAX_HISTORY_ENTRIES = 50;
/** States recorded as visited per task (a machine's states are finite, but a machine may be large). */
export const MAX_VISITED_STATES = 200;
/** Keys named in one entry: a step asks a few questions at once, not hundreds. */
const MAX_KEYS = 20;

/** How a step ended: `asked` (questions, `k`), `timer` (waiting on one), or its lost claim (`lost`). */
export type StepEnd = 'asked' | 'timer' | 'completed' | 'failed' | 'cancelled' | 'lost';

/**
 * One event, as stored: `t` ms after the task was created; `e` what happened (`created`, `start`
 * and `end` of a step, `answered`; `cancelled`, `expired` or `failed` with no step running); `i` the instance
 * that ran the step; `x` how a step ended; `k` question keys asked or answered.
 */
export interface HistoryEntry {
  t: number;
  e: 'created' | 'start' | 'end' | 'answered' | 'cancelled' | 'expired' | 'failed';
  i?: string;
  x?: StepEnd;
  k?: string[];
}

/** TaskRecord.history. */
export interface TaskHistory {
  /** Oldest first, at most MAX_HISTORY_ENTRIES. */
  entries: HistoryEntry[];
  /** Entries dropped from the front to keep the bound. */
  dropped?: number;
  /** States the task has been in, as key paths from the root (`deploy.waiting`), first entered first. */
  visited?: string[];
}

/** One event as the console and `baton tasks show` read it: absolute time, readable names. */
export interface TimelineEntry {
  at: number;
  kind: HistoryEntry['e'];
  instance?: string;
  ended?: StepEnd;
  keys?: string[];
}

/** A history with `entry` added (and `visited` merged), bounded; the record's own is not changed. */
export function withHistory(
  record: { createdAt: number; history?: TaskHistory | undefined },
  at: number,
  entry: Omit<HistoryEntry, 't'>,
  visited: Iterable<string> = [],
): TaskHistory {
  const old = record.history;
  const compact: HistoryEntry = { t: Math.max(0, at - record.createdAt), e: entry.e };
  if (entry.i !== undefined) compact.i = entry.i.slice(0, 200);
  if (entry.x !== undefined) compact.x = entry.x;
  if (entry.k !== undefined && entry.k.length > 0) compact.k = entry.k.slice(0, MAX_KEYS);
  const entries = [...(old?.entries ?? []), compact];
  const over = Math.max(0, entries.length - MAX_HISTORY_ENTRIES);
  const dropped = (old?.dropped ?? 0) + over;
  const states = mergeVisited(old?.visited, visited);
  return {
    entries: over > 0 ? entries.slice(over) : entries,
    ...(dropped > 0 ? { dropped } : {}),
    ...(states.length > 0 ? { visited: states } : {}),
  };
}

function mergeVisited(old: readonly string[] | undefined, more: Iterable<string>): string[] {
  const states = new Set(old ?? []);
  for (const state of more) {
    if (states.size >= MAX_VISITED_STATES) break;
    states.add(state);
  }
  return [...states];
}

/** The history a new task starts with: created, in the states its snapshot is in. */
export function createdHistory(snapshot: Record<string, unknown> | undefined): TaskHistory {
  return withHistory(
    { createdAt: 0 },
    0,
    { e: 'created' },
    activeStates((snapshot as { value?: unknown } | undefined)?.value),
  );
}

/** The stored entries as times and names, oldest first. */
export function timelineOf(record: { createdAt: number; history?: TaskHistory | undefined }): TimelineEntry[] {
  return (record.history?.entries ?? []).map((entry) => ({
    at: record.createdAt + entry.t,
    kind: entry.e,
    ...(entry.i === undefined ? {} : { instance: entry.i }),
    ...(entry.x === undefined ? {} : { ended: entry.x }),
    ...(entry.k === undefined ? {} : { keys: entry.k }),
  }));
}

/** The instance that last started a step, when the history names one. */
export function lastInstance(history: TaskHistory | undefined): string | undefined {
  const entries = history?.entries ?? [];
  for (let n = entries.length - 1; n >= 0; n--) if (entries[n]!.e === 'start') return entries[n]!.i;
  return undefined;
}
