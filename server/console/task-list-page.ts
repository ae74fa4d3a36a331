/**
 * The console's task list (`GET /console`): every principal's tasks, most recently changed first,
 * a page at a time, filtered by status, tool and time of last change (a plain GET form: no script
 * needed), with a link to each task's page.
 */
import { isTerminalStatus, type TaskSummary } from '../engine/index.js';
import { consoleHref, consolePage, escapeHtml, options, statusBadge, timeAgo } from './console-page.js';

/** The age filter: changed within, or not changed for, an hour, a day, a week. */
export const CHANGED_FILTERS: Record<string, { label: string; within?: number; olderThan?: number }> = {
  '1h': { label: 'changed in the last hour', within: 3_600_000 },
  '24h': { label: 'changed in the last day', within: 86_400_000 },
  gt1h: { label: 'not changed for an hour', olderThan: 3_600_000 },
  gt24h: { label: 'not changed for a day', olderThan: 86_400_000 },
};

export const STATUS_FILTERS = ['working', 'input_required', 'completed', 'cancelled', 'failed'] as const;

export interface TaskListFilters {
  status?: string | undefined;
  tool?: string | undefined;
  changed?: string | undefined;
}

export interface TaskListView {
  base: string;
  now: number;
  tasks: TaskSummary[];
  /** The tools served, for the tool filter. */
  tools: string[];
  filters: TaskListFilters;
  /** The next page's cursor, if there is one. */
  cursor?: string | undefined;
  /** Whether this page starts at the newest task. */
  first: boolean;
  /** Said above the list (no task tool served, for one). */
  note?: string | undefined;
  /** The live-update stream's URL (console-page.ts, `events`). */
  events?: string | undefined;
}

/** What a task waits in or runs, as the list shows it. */
export function stateCell(task: TaskSummary): string {
  if (task.states.length === 0) return '<span class="muted">–</span>';
  return task.states.map((state) => `<code>${escapeHtml(state)}</code>`).join(' ');
}

/** A cancel asked of a task still running; once it has ended, its status says it all. */
export function cancelRequested(task: TaskSummary): boolean {
  return task.cancelRequested && !isTerminalStatus(task.status);
}

export function taskRow(base: string, task: TaskSummary, now: number, extra = ''): string {
  const href = consoleHref(base, `/tasks/${encodeURIComponent(task.taskId)}`);
  return `<tr data-task="${escapeHtml(task.taskId)}" data-status="${escapeHtml(task.status)}">
<td><a href="${escapeHtml(href)}"><code>${escapeHtml(task.taskId)}</code></a></td>
<td>${escapeHtml(task.tool)}</td>
<td>${statusBadge(task.status)}</td>
<td>${stateCell(task)}</td>
<td>${escapeHtml(task.phase)}${cancelRequested(task) ? ' <span class="reason">cancel requested</span>' : ''}</td>
<td>${timeAgo(task.createdAt, now)}</td>
<td>${timeAgo(task.lastUpdatedAt, now)}</td>
<td>${task.runningJob ? `<code>${escapeHtml(task.runningJob)}</code>` : '<span class="muted">–</span>'}</td>
<td class="instance">${task.instance ? `<code>${escapeHtml(task.instance)}</code>` : '<span class="muted">–</span>'}</td>
<td>${task.traceId ? `<code>${escapeHtml(task.traceId)}</code>` : '<span class="muted">–</span>'}</td>
<td class="message">${escapeHtml(task.statusMessage ?? '')}</td>${extra}
</tr>`;
}

export const TASK_HEADER =
  '<th>Task</th><th>Tool</th><th>Status</th><th>State</th><th>Phase</th><th>Created</th><th>Changed</th><th>Job</th><th>Instance</th><th>Trace</th><th>Message</th>';

export function taskListPage(view: TaskListView): string {
  const { base, filters } = view;
  const form = `<form class="filters" method="get" action="${escapeHtml(base)}">
<label>Status <select name="status">${options(
    [['', 'any'], ...STATUS_FILTERS.map((s): [string, string] => [s, s.replace('_', ' ')])],
    filters.status,
  )}</select></label>
<label>Tool <select name="tool">${options(
    [['', 'any'], ...view.tools.map((t): [string, string] => [t, t])],
    filters.tool,
  )}</select></label>
<label>Age <select name="changed">${options(
    [['', 'any'], ...Object.entries(CHANGED_FILTERS).map(([k, v]): [string, string] => [k, v.label])],
    filters.changed,
  )}</select></label>
<button type="submit">Filter</button>
</form>`;
  const rows = view.tasks.map((task) => taskRow(base, task, view.now)).join('\n');
  const table =
    view.tasks.length > 0
      ? `<div class="wide"><table class="tasks"><thead><tr>${TASK_HEADER}</tr></thead><tbody>\n${rows}\n</tbody></table></div>`
      : `<p class="muted">No task${view.cursor ? ' on this page; there may be more on the next' : ''}.</p>`;
  const pager = [
    view.first ? '' : `<a href="${escapeHtml(consoleHref(base, '', { ...filters }))}">← newest</a>`,
    view.cursor
      ? `<a rel="next" href="${escapeHtml(consoleHref(base, '', { ...filters, cursor: view.cursor }))}">next page →</a>`
      : '',
  ].join('');
  const note = view.note ? `<p class="notice">${escapeHtml(view.note)}</p>` : '';
  return consolePage({
    title: 'Tasks',
    base,
    events: view.events,
    body: `${note}<p class="muted">Every principal's tasks in this server's task store, most recently changed first. Arguments and answers are never shown.</p>
${form}
<div id="live-list" data-live>
${table}
<div class="pager">${pager}</div>
</div>`,
  });
}
