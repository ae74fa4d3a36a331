/**
 * The console's page frame and the small pieces every console page shares, in the docs site's
 * look (its stylesheet, plus console-style.ts). Every piece of text a task carries (a status
 * message, a result, an error, an id) is data: it goes through `escapeHtml`, never into markup.
 */
import { escapeHtml } from '../docs-site/index.js';

export { escapeHtml };

export interface ConsolePageOptions {
  title: string;
  /** Where the console is mounted (`/console`). */
  base: string;
  /** The page's HTML, already escaped where it carries data. */
  body: string;
  /** Load the diagram scripts (a task page). */
  diagram?: boolean;
  /**
   * The page's live-update stream (`<base>/events…`): console-live.js listens to it and fetches
   * the page's `data-live` sections again when it says something changed. None: a still page.
   */
  events?: string | undefined;
}

export function consolePage(options: ConsolePageOptions): string {
  const base = escapeHtml(options.base);
  const scripts = [
    ...(options.diagram ? ['mermaid.min.js', 'diagram-view.js', 'console.js'] : []),
    ...(options.events ? ['console-live.js'] : []),
  ].map((name) => `<script src="${base}/assets/${name}"></script>`);
  const events = options.events ? ` data-events="${escapeHtml(options.events)}"` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(options.title)} · Baton console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${base}/assets/console.css">
</head>
<body>
<header><strong>Baton</strong> console · <a href="${base}">tasks</a> · <a href="${base}/stuck">stuck</a> · <a href="${base}/replay">replay</a></header>
<main${events}>
<h1>${escapeHtml(options.title)}</h1>
${options.body}
</main>
${scripts.join('\n')}
</body>
</html>
`;
}

/** `42s`, `5m`, `3h`, `2d` ago. */
export function ago(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s}s`;
  if (s < 2 * 3600) return `${Math.floor(s / 60)}m`;
  if (s < 2 * 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

/** A time as `<time>`: how long ago, the exact time in its title and attribute. */
export function timeAgo(at: number, now: number): string {
  const iso = new Date(at).toISOString();
  const when = at <= now ? `${ago(now - at)} ago` : `in ${ago(at - now)}`;
  return `<time datetime="${iso}" title="${iso}">${when}</time>`;
}

/** A status as a badge the stylesheet colours by status. */
export function statusBadge(status: string): string {
  return `<span class="status status-${escapeHtml(status)}">${escapeHtml(status.replace('_', ' '))}</span>`;
}

/** A link within the console, with a query built from defined values only. */
export function consoleHref(base: string, path: string, query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const text = params.toString();
  return `${base}${path}${text ? `?${text}` : ''}`;
}

/** `<option>`s of a select, the current one selected. */
export function options(choices: Array<[value: string, label: string]>, current: string | undefined): string {
  return choices
    .map(
      ([value, label]) =>
        `<option value="${escapeHtml(value)}"${value === (current ?? '') ? ' selected' : ''}>${escapeHtml(label)}</option>`,
    )
    .join('');
}
