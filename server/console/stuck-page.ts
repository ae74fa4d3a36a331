/**
 * The console's stuck view (`GET /console/stuck`): live tasks a stuck rule holds for
 * (engine/tasks/stuck-tasks.ts), each with why, and the quiet time that makes a task suspect.
 */
import type { StuckReason, StuckTask } from '../engine/index.js';
import { consoleHref, consolePage, escapeHtml } from './console-page.js';
import { TASK_HEADER, taskRow } from './task-list-page.js';

const REASONS: Record<StuckReason, string> = {
  running_unchanged: 'a step holds it and wrote nothing for too long (its instance may be frozen or gone)',
  queued_unstarted: 'queued and never started (its job may be missing from the queue)',
  timer_overdue: 'its timer fell due and did not fire',
  expired: 'past its ttl and not ended',
  unchanged: 'not changed for longer than the threshold',
};

export interface StuckView {
  base: string;
  now: number;
  tasks: StuckTask[];
  /** The thresholds in minutes, as the form shows them. */
  minutes: { unchanged: number; running: number };
  cursor?: string | undefined;
}

export function stuckPage(view: StuckView): string {
  const { base } = view;
  const query = { unchanged: String(view.minutes.unchanged), running: String(view.minutes.running) };
  const rows = view.tasks
    .map((task) =>
      taskRow(
        base,
        task,
        view.now,
        `<td class="message">${task.reasons.map((r) => `<span class="reason" data-reason="${r}">${escapeHtml(REASONS[r])}</span>`).join('<br>')}</td>`,
      ),
    )
    .join('\n');
  const table =
    view.tasks.length > 0
      ? `<div class="wide"><table class="tasks"><thead><tr>${TASK_HEADER}<th>Why</th></tr></thead><tbody>\n${rows}\n</tbody></table></div>`
      : `<p class="muted">No stuck task${view.cursor ? ' on this page; there may be more on the next' : ''}.</p>`;
  const next = view.cursor
    ? `<div class="pager"><a rel="next" href="${escapeHtml(consoleHref(base, '/stuck', { ...query, cursor: view.cursor }))}">next page →</a></div>`
    : '';
  return consolePage({
    title: 'Stuck tasks',
    base,
    body: `<p class="muted">Live tasks whose step holds its claim without a word, that never started, whose timer did not fire, or that have not changed for longer than the threshold.</p>
<form class="filters" method="get" action="${escapeHtml(`${base}/stuck`)}">
<label>Unchanged for (minutes) <input type="number" name="unchanged" min="1" max="100000" value="${view.minutes.unchanged}"></label>
<label>Running without a word for (minutes) <input type="number" name="running" min="1" max="100000" value="${view.minutes.running}"></label>
<button type="submit">Look</button>
</form>
${table}
${next}`,
  });
}
