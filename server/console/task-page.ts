/**
 * One task's page (`GET /console/tasks/<id>`): its facts, its tool's diagram with the state it is
 * in highlighted (drawn in the browser by the docs site's Mermaid and ELK, assets/console.js), its
 * questions by key with when each was asked and answered (never the answers), its timers, its
 * result or error, and a cancel button while it is live. The cancel form carries a token bound to
 * the operator and the task (console-csrf.ts).
 */
import type { PendingQuestion, RevealedValues, TaskDetail } from '../engine/index.js';
import { answerForms } from './answer-form.js';
import { isTerminalStatus } from '../engine/index.js';
import { consoleHref, consolePage, escapeHtml, statusBadge, timeAgo } from './console-page.js';
import { cancelRequested, stateCell } from './task-list-page.js';
import type { TaskDiagram } from './task-diagram.js';

export interface TaskPageView {
  base: string;
  now: number;
  task: TaskDetail;
  /** Undefined when this instance does not serve the task's tool. */
  diagram?: TaskDiagram | undefined;
  /** Whether the diagram is of another version of the tool than the task runs. */
  otherVersion?: boolean;
  /** The cancel form's token; no form without one. */
  csrf?: string | undefined;
  /** What the last action did (`?cancel=` after a cancel). */
  notice?: string | undefined;
  /** The live-update stream's URL (console-page.ts, `events`). */
  events?: string | undefined;
  /** The reveal form's token (bound to `reveal` and this task); no form without one. */
  revealCsrf?: string | undefined;
  /** The arguments and answers, shown once, after the operator's reveal. */
  revealed?: RevealedValues | undefined;
  /** `baton dev` only: a form per pending question, with the token bound to `answer` and this task. */
  answer?: { csrf: string; questions: PendingQuestion[] } | undefined;
}

const CANCEL_NOTICES: Record<string, string> = {
  answered: 'The answer was sent to the task, as tasks/update sends it.',
  ignored: 'The answer was not taken: the question had been answered or was no longer asked.',
  cancelled: 'The task was cancelled.',
  requested: 'Cancel requested: the step running it is being stopped, wherever it runs.',
  terminal: 'The task had already finished: nothing was cancelled.',
};

function facts(view: TaskPageView): string {
  const { task, now } = view;
  const none = '<span class="muted">–</span>';
  const rows: Array<[string, string]> = [
    [
      'Status',
      `${statusBadge(task.status)}${cancelRequested(task) ? ' <span class="reason">cancel requested</span>' : ''}`,
    ],
    ['Status message', task.statusMessage ? escapeHtml(task.statusMessage) : none],
    ['State', stateCell(task)],
    ['Phase', escapeHtml(task.phase)],
    ['Tool', `${escapeHtml(task.tool)} <span class="muted">version ${escapeHtml(task.version)}</span>`],
    ['Created', timeAgo(task.createdAt, now)],
    ['Last change', timeAgo(task.lastUpdatedAt, now)],
    ['Expires', timeAgo(task.expiresAt, now)],
    [
      'Running job',
      task.runningJob ? `<code>${escapeHtml(task.runningJob)}</code>${task.claimed ? ' (claimed)' : ''}` : none,
    ],
    ['Last instance', task.instance ? `<code>${escapeHtml(task.instance)}</code>` : none],
    ['Trace', task.traceId ? `<code>${escapeHtml(task.traceId)}</code>` : none],
    ['Principal', `<code>${escapeHtml(task.principal)}</code> <span class="muted">(digest)</span>`],
  ];
  return `<table class="facts">${rows.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('\n')}</table>`;
}

function questions(view: TaskPageView): string {
  const { task, now } = view;
  if (task.questions.length === 0) return '';
  const rows = task.questions
    .map(
      (
        q,
      ) => `<tr data-question="${escapeHtml(q.key)}"><td><code>${escapeHtml(q.key)}</code></td><td>${escapeHtml(q.questionKey)}</td>
<td>${q.askedAt === undefined ? '<span class="muted">–</span>' : timeAgo(q.askedAt, now)}</td>
<td>${q.answered ? (q.answeredAt === undefined ? 'answered' : `answered ${timeAgo(q.answeredAt, now)}`) : 'waiting'}</td></tr>`,
    )
    .join('\n');
  return `<h2>Questions</h2>
<p class="muted">By key; what was answered is never shown.</p>
<table><thead><tr><th>Key</th><th>Question</th><th>Asked</th><th>Answer</th></tr></thead><tbody>${rows}</tbody></table>`;
}

const ENDED: Record<string, string> = {
  asked: 'asked',
  timer: 'waiting on a timer',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  lost: 'lost its claim (its instance stopped or stalled; another run took over)',
};

const KINDS: Record<string, string> = {
  created: 'created',
  start: 'step started',
  end: 'step ended',
  answered: 'answered',
  cancelled: 'cancelled',
  expired: 'expired',
  failed: 'failed',
};

/** What happened, oldest first: steps on their instances, questions by key (never the answers). */
export function timeline(task: TaskDetail, now: number): string {
  if (!task.timeline) {
    return '<h2>Timeline</h2><p class="muted">This task was stored before timelines were kept.</p>';
  }
  const dropped = task.timelineDropped
    ? `<p class="muted">${task.timelineDropped} earlier entries were dropped: the last ${task.timeline.length} are kept.</p>`
    : '';
  const rows = task.timeline
    .map((entry) => {
      const keys = (entry.keys ?? []).map((key) => `<code>${escapeHtml(key)}</code>`).join(' ');
      const what = entry.ended
        ? `${KINDS[entry.kind]}: ${ENDED[entry.ended] ?? escapeHtml(entry.ended)}`
        : KINDS[entry.kind];
      return `<tr data-kind="${escapeHtml(entry.kind)}"><td>${timeAgo(entry.at, now)}</td><td>${what ?? escapeHtml(entry.kind)}${keys ? ` ${keys}` : ''}</td><td>${entry.instance ? `<code>${escapeHtml(entry.instance)}</code>` : '<span class="muted">–</span>'}</td></tr>`;
    })
    .join('\n');
  return `<h2>Timeline</h2>${dropped}
<table class="timeline"><thead><tr><th>When</th><th>What</th><th>Instance</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function timers(view: TaskPageView): string {
  if (view.task.timers.length === 0) return '';
  const rows = view.task.timers
    .map((t) => `<tr><td><code>${escapeHtml(t.id)}</code></td><td>${timeAgo(t.dueAt, view.now)}</td></tr>`)
    .join('\n');
  return `<h2>Timers</h2><table><thead><tr><th>Timer</th><th>Due</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function outcome(task: TaskDetail): string {
  if (task.error) {
    return `<h2>Error</h2><pre class="code"><code>${escapeHtml(JSON.stringify(task.error, null, 2))}</code></pre>`;
  }
  if (task.result) {
    return `<h2>Result</h2><pre class="code"><code>${escapeHtml(JSON.stringify(task.result, null, 2))}</code></pre>`;
  }
  return '';
}

function diagram(view: TaskPageView): string {
  if (!view.diagram)
    return `<p class="muted">This server does not serve ${escapeHtml(view.task.tool)}: no diagram.</p>`;
  const note = view.otherVersion
    ? `<p class="muted">The task runs version ${escapeHtml(view.task.version)}; the diagram is of the version served now.</p>`
    : '';
  const { source, current, around, visited } = view.diagram;
  const legend =
    visited.length > 0 ? '<p class="muted">Highlighted: where it is now. Dotted: states it passed through.</p>' : '';
  return `<h2>Where it is</h2>${note}${legend}
<div class="diagram console-diagram" data-diagram="state" data-rendered="pending" data-current="${escapeHtml(current.join(' '))}" data-around="${escapeHtml(around.join(' '))}" data-visited="${escapeHtml(visited.join(' '))}"><pre class="mermaid-source">${escapeHtml(source)}</pre></div>`;
}

function revealSection(view: TaskPageView): string {
  const { base, task } = view;
  if (view.revealed) {
    const json = (value: unknown) =>
      `<pre class="code"><code>${escapeHtml(JSON.stringify(value, null, 2))}</code></pre>`;
    return `<h2>Arguments and answers</h2>
<p class="notice">Shown once, for this page only, and logged with your name. Reload to hide them.</p>
<h3>Arguments</h3>${json(view.revealed.arguments)}
<h3>Answers held</h3>${json(view.revealed.answers)}`;
  }
  if (!view.revealCsrf) return '';
  const action = consoleHref(base, `/tasks/${encodeURIComponent(task.taskId)}/reveal`);
  return `<form class="reveal" method="post" action="${escapeHtml(action)}"><input type="hidden" name="csrf" value="${escapeHtml(view.revealCsrf)}"><button type="submit">Reveal arguments and answers</button> <span class="muted">(logged)</span></form>`;
}

function answerSection(view: TaskPageView): string {
  if (!view.answer || view.task.status !== 'input_required') return '';
  const action = consoleHref(view.base, `/tasks/${encodeURIComponent(view.task.taskId)}/answer`);
  return answerForms(action, view.answer.csrf, view.answer.questions);
}

export function taskPage(view: TaskPageView): string {
  const { base, task } = view;
  const action = consoleHref(base, `/tasks/${encodeURIComponent(task.taskId)}/cancel`);
  const cancel =
    view.csrf && !isTerminalStatus(task.status)
      ? `<form class="cancel" method="post" action="${escapeHtml(action)}"><input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}"><button type="submit">Cancel this task</button></form>`
      : '';
  const notice =
    view.notice && CANCEL_NOTICES[view.notice] ? `<p class="notice">${CANCEL_NOTICES[view.notice]}</p>` : '';
  return consolePage({
    title: `${task.tool} · ${task.taskId}`,
    base,
    diagram: view.diagram !== undefined,
    events: view.events,
    body: `<div id="live-head" data-live>${notice}${facts(view)}
${cancel}
${answerSection(view)}
</div>
${revealSection(view)}
${diagram(view)}
<div id="live-body" data-live>
${questions(view)}
${timeline(task, view.now)}
${timers(view)}
${outcome(task)}
</div>`,
  });
}
