/**
 * How `baton tasks` prints tasks: a plain table and `key: value` lines for people, JSON for
 * scripts (`--json`). No progress, no colour, nothing on stdout but the answer, so the output can
 * be piped; times are ISO 8601 in JSON and ages (`5m`, `2h`) in the table.
 */
import type { StuckTask, TaskDetail, TaskSummary } from '../engine/index.js';

/** `42s`, `5m`, `3h`, `2d`: how long ago, coarse enough to read at a glance. */
export function age(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s}s`;
  if (s < 2 * 3600) return `${Math.floor(s / 60)}m`;
  if (s < 2 * 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

/** What the task waits in or runs: its states, else its phase. */
export function where(task: TaskSummary): string {
  return task.states.length > 0 ? task.states.join(',') : '-';
}

/** A table, columns padded to their widest cell; the last column is not padded. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '),
    )
    .join('\n');
}

/** The task list as a table; `stuck` adds why each looks stuck. */
export function taskTable(tasks: Array<TaskSummary | StuckTask>, now: number): string {
  const stuck = tasks.some((task) => 'reasons' in task);
  const header = ['ID', 'TOOL', 'STATUS', 'PHASE', 'STATE', 'AGE', 'CHANGED', 'INSTANCE', 'JOB', 'TRACE'];
  if (stuck) header.push('WHY');
  const rows = tasks.map((task) => {
    const row = [
      task.taskId,
      task.tool,
      task.status,
      task.phase,
      where(task),
      age(now - task.createdAt),
      age(now - task.lastUpdatedAt),
      // The instance that last ran a step of it (its history), as the console shows it.
      task.instance ?? '-',
      task.runningJob ?? '-',
      task.traceId ?? '-',
    ];
    if (stuck) row.push('reasons' in task ? task.reasons.join(',') : '-');
    return row;
  });
  return `${table([header, ...rows])}\n`;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A summary as JSON: times as ISO 8601 as in tasks/get, the rest as listed. */
export function taskJson(task: TaskSummary | TaskDetail | StuckTask): Record<string, unknown> {
  return {
    ...task,
    createdAt: iso(task.createdAt),
    lastUpdatedAt: iso(task.lastUpdatedAt),
    expiresAt: iso(task.expiresAt),
    questions: task.questions.map((q) => ({
      ...q,
      ...(q.askedAt === undefined ? {} : { askedAt: iso(q.askedAt) }),
      ...(q.answeredAt === undefined ? {} : { answeredAt: iso(q.answeredAt) }),
    })),
    timers: task.timers.map((t) => ({ ...t, dueAt: iso(t.dueAt) })),
    ...('timeline' in task && task.timeline ? { timeline: task.timeline.map((e) => ({ ...e, at: iso(e.at) })) } : {}),
  };
}

/** One task as `key: value` lines, then its questions, timers and result. */
export function taskText(task: TaskDetail, now: number): string {
  const lines = [
    `id:           ${task.taskId}`,
    `tool:         ${task.tool} (version ${task.version})`,
    `status:       ${task.status}${task.statusMessage ? ` (${task.statusMessage})` : ''}`,
    `phase:        ${task.phase}${task.cancelRequested ? ', cancel requested' : ''}`,
    `state:        ${where(task)}`,
    `created:      ${iso(task.createdAt)} (${age(now - task.createdAt)} ago)`,
    `changed:      ${iso(task.lastUpdatedAt)} (${age(now - task.lastUpdatedAt)} ago)`,
    `expires:      ${iso(task.expiresAt)}`,
    `principal:    ${task.principal}`,
    `running job:  ${task.runningJob ?? '-'}${task.claimed ? ' (claimed)' : ''}`,
    `instance:     ${task.instance ?? '-'}`,
    `trace:        ${task.traceId ?? '-'}`,
  ];
  for (const q of task.questions) {
    const asked = q.askedAt === undefined ? '' : ` asked ${iso(q.askedAt)}`;
    const answered = q.answeredAt === undefined ? '' : ` answered ${iso(q.answeredAt)}`;
    lines.push(`question:     ${q.key} (${q.answered ? 'answered' : 'waiting'})${asked}${answered}`);
  }
  for (const t of task.timers) lines.push(`timer:        ${t.id} due ${iso(t.dueAt)}`);
  if (task.timelineDropped) lines.push(`history:      ${task.timelineDropped} earlier entries dropped`);
  for (const e of task.timeline ?? []) {
    const what = [e.kind, e.ended, e.keys?.join(','), e.instance && `on ${e.instance}`].filter(Boolean).join(' ');
    lines.push(`history:      ${iso(e.at)} ${what}`);
  }
  if (task.error) lines.push(`error:        ${task.error.code} ${task.error.message}`);
  if (task.result) lines.push(`result:       ${JSON.stringify(task.result)}`);
  return `${lines.join('\n')}\n`;
}
