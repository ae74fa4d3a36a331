/**
 * The replay page (`/console/replay`, docs/console.md "Replay a paused flow"): paste a flow's
 * `requestState`, see where its machine waits on the tool's diagram and what its context holds,
 * and continue it with answers of your choosing, from the same point as often as you like
 * (engine/flow/flow-replay.ts: a fork on the tool's stand-ins; the client's state is untouched).
 *
 * Each question is a plain form (no script needed): an action (accept, decline, cancel) and one
 * field per property of a form question's schema, named `answer:` + the JSON of [key, property,
 * type] so the route reads the answers back with their types (replay-answers.ts). Every value
 * shown (context, results, messages) is data and goes through `escapeHtml`.
 */
import type { OpenedForReplay } from '../engine/index.js';
import { consoleHref, consolePage, escapeHtml, timeAgo } from './console-page.js';
import type { TaskDiagram } from './task-diagram.js';

export interface ReplayView {
  base: string;
  now: number;
  csrf: string;
  /** What was pasted, or what the last step started from (`origin`: the point to try again). */
  origin?: string | undefined;
  /** Where the presented state stood, once it opened. */
  from?: OpenedForReplay | undefined;
  diagram?: TaskDiagram | undefined;
  /** What the step came to. */
  outcome?: ReplayOutcomeView | undefined;
  /** Why nothing ran (a state that does not open, a tool not served, one that cannot be replayed). */
  problem?: string | undefined;
}

export type ReplayOutcomeView =
  | { kind: 'complete'; output: unknown }
  | { kind: 'failed'; message: string }
  | { kind: 'asking'; inputRequests: Record<string, any>; fork: string };

function stateForm(view: ReplayView): string {
  const action = escapeHtml(consoleHref(view.base, '/replay'));
  return `<form class="replay-open" method="post" action="${action}">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<label for="replay-state">A flow's <code>requestState</code> (from a client, the Try it panel's wire log, or a log line)</label>
<textarea id="replay-state" name="requestState" rows="4" spellcheck="false" required>${escapeHtml(view.origin ?? '')}</textarea>
<button type="submit">Open</button>
</form>`;
}

function where(view: ReplayView): string {
  const { from, now } = view;
  if (!from) return '';
  const rows: Array<[string, string]> = [
    ['Tool', `${escapeHtml(from.tool)} <span class="muted">version ${escapeHtml(from.version)}</span>`],
    ['State', from.states.map((state) => `<code>${escapeHtml(state)}</code>`).join(', ') || '–'],
    ['Round', String(from.round)],
    ['Sealed state', from.fork ? 'a fork made by a replay' : 'a client’s state (left as it is)'],
    ['Expires', timeAgo(from.expiresAt, now)],
  ];
  const facts = `<table class="facts">${rows.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('\n')}</table>`;
  const diagram = view.diagram
    ? `<div class="diagram console-diagram" data-diagram="state" data-rendered="pending" data-current="${escapeHtml(view.diagram.current.join(' '))}" data-around="${escapeHtml(view.diagram.around.join(' '))}"><pre class="mermaid-source">${escapeHtml(view.diagram.source)}</pre></div>`
    : '';
  return `<h2>Where it stands</h2>${facts}${diagram}
<h2>Context</h2><pre class="code replay-context"><code>${escapeHtml(JSON.stringify(from.context ?? null, null, 2))}</code></pre>`;
}

function field(key: string, property: string, schema: Record<string, any>, required: boolean): string {
  const type = Array.isArray(schema.enum) ? 'enum' : String(schema.type ?? 'string');
  const name = escapeHtml(`answer:${JSON.stringify([key, property, type])}`);
  const label = `<span>${escapeHtml(schema.title ?? property)}${required ? ' *' : ''}</span>`;
  if (type === 'enum') {
    const choices = (schema.enum as unknown[]).map(
      (value) => `<option value="${escapeHtml(String(value))}">${escapeHtml(String(value))}</option>`,
    );
    return `<label>${label}<select name="${name}">${choices.join('')}</select></label>`;
  }
  if (type === 'boolean') {
    return `<label>${label}<select name="${name}"><option value="true">yes</option><option value="false">no</option></select></label>`;
  }
  const input = type === 'number' || type === 'integer' ? 'number" step="any' : 'text';
  return `<label>${label}<input type="${input}" name="${name}"></label>`;
}

function question(key: string, request: Record<string, any>): string {
  const params = request.params ?? {};
  const actions = ['accept', 'decline', 'cancel']
    .map((action) => `<option value="${action}">${action}</option>`)
    .join('');
  const head = `<legend><code>${escapeHtml(key)}</code></legend>
<p>${escapeHtml(String(params.message ?? request.method ?? ''))}</p>`;
  if (request.method === 'elicitation/create') {
    const actionField = `<label><span>Action</span><select name="${escapeHtml(`action:${key}`)}">${actions}</select></label>`;
    const schema = params.requestedSchema ?? {};
    const required = new Set<string>(Array.isArray(schema.required) ? schema.required : []);
    const fields =
      params.mode === 'url'
        ? `<p class="muted">A URL question: accept means the page's work is done.</p>`
        : Object.entries((schema.properties ?? {}) as Record<string, Record<string, any>>)
            .map(([property, child]) => field(key, property, child, required.has(property)))
            .join('\n');
    return `<fieldset class="replay-question">${head}${actionField}${fields}</fieldset>`;
  }
  // Sampling and roots: the reply is written out whole.
  return `<fieldset class="replay-question">${head}<label><span>Reply (JSON)</span><textarea name="${escapeHtml(`json:${key}`)}" rows="3" spellcheck="false"></textarea></label></fieldset>`;
}

function outcome(view: ReplayView): string {
  const { outcome: result } = view;
  if (!result) return '';
  if (result.kind === 'complete') {
    return `<h2>It ended</h2><pre class="code replay-result"><code>${escapeHtml(JSON.stringify(result.output ?? null, null, 2))}</code></pre>`;
  }
  if (result.kind === 'failed') return `<h2>It failed</h2><p class="replay-failed">${escapeHtml(result.message)}</p>`;
  const action = escapeHtml(consoleHref(view.base, '/replay'));
  const questions = Object.entries(result.inputRequests)
    .map(([key, request]) => question(key, request as Record<string, any>))
    .join('\n');
  return `<h2>It asks</h2>
<form class="replay-answer" method="post" action="${action}">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<input type="hidden" name="requestState" value="${escapeHtml(result.fork)}">
<input type="hidden" name="origin" value="${escapeHtml(view.origin ?? '')}">
${questions}
<details><summary>Answers as JSON instead</summary>
<label><span><code>inputResponses</code></span><textarea name="inputResponses" rows="4" spellcheck="false"></textarea></label></details>
<button type="submit">Continue</button>
</form>`;
}

function tryAgain(view: ReplayView): string {
  if (!view.origin || !view.outcome) return '';
  const action = escapeHtml(consoleHref(view.base, '/replay'));
  return `<form class="replay-again" method="post" action="${action}">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<input type="hidden" name="requestState" value="${escapeHtml(view.origin)}">
<button type="submit">Back to the state you opened</button>
</form>`;
}

export function replayPage(view: ReplayView): string {
  const problem = view.problem ? `<p class="notice replay-problem">${escapeHtml(view.problem)}</p>` : '';
  return consolePage({
    title: 'Replay a paused flow',
    base: view.base,
    diagram: view.diagram !== undefined,
    body: `<p class="muted">Continue a paused flow from its <code>requestState</code> with answers of your choosing, as often as you like. A replay is a fork: it runs on the tool's stand-ins for its effects (as the docs' examples do), claims no single-use state, and leaves the client's state as it is.</p>
${problem}
${view.outcome ? '' : stateForm(view)}
${where(view)}
${outcome(view)}
${tryAgain(view)}`,
  });
}
