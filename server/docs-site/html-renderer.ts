/**
 * Doc pages as HTML for `GET /docs`. Diagrams are sent as Mermaid source and drawn in the browser
 * by the `mermaid` package the server serves from its own dependencies (no CDN). Every piece of
 * text is escaped: tool descriptions and questions are data, never markup.
 */
import type { Block, DocPage, Inline, PageRef } from './doc-page.js';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `/docs`, `/docs/tools/release`, `/docs/resources/test%3A%2F%2Fstatic-text`. */
export function pagePath(ref: PageRef, base: string): string {
  return ref.kind === 'index' ? base : `${base}/${ref.kind}s/${ref.slug}`;
}

function inline(parts: Inline[], base: string): string {
  return parts
    .map((part) => {
      if (typeof part === 'string') return escapeHtml(part);
      if ('code' in part) return `<code>${escapeHtml(part.code)}</code>`;
      return `<a href="${escapeHtml(pagePath(part.to, base))}">${escapeHtml(part.text)}</a>`;
    })
    .join('');
}

function block(b: Block, base: string): string {
  switch (b.type) {
    case 'heading':
      return `<h2>${escapeHtml(b.text)}</h2>`;
    case 'paragraph':
      return `<p>${inline(b.content, base)}</p>`;
    case 'table': {
      const head = b.header.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
      const rows = b.rows.map((row) => `<tr>${row.map((c) => `<td>${inline(c, base)}</td>`).join('')}</tr>`).join('\n');
      return `<table><thead><tr>${head}</tr></thead><tbody>\n${rows}\n</tbody></table>`;
    }
    case 'diagram':
      return `<div class="diagram" data-diagram="${b.kind}"><pre class="mermaid-source">${escapeHtml(b.source)}</pre></div>`;
    case 'code':
      return `<pre class="code"><code>${escapeHtml(b.source)}</code></pre>`;
  }
}

export const DOCS_STYLE = `
body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1f2328; }
header { background: #f6f8fa; border-bottom: 1px solid #d0d7de; padding: 0.6rem 1.5rem; }
main { max-width: 72rem; padding: 0 1.5rem 3rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
th, td { border: 1px solid #d0d7de; padding: 0.3rem 0.6rem; text-align: left; vertical-align: top; }
code { background: #f6f8fa; padding: 0 0.2rem; border-radius: 3px; }
pre.code { background: #f6f8fa; padding: 0.8rem; overflow: auto; }
h1 img.icon { height: 1.2em; margin-right: 0.4rem; vertical-align: -0.15em; }
.diagram { overflow: auto; margin: 0.5rem 0 1rem; }
.diagram-toolbar { display: flex; gap: 0.3rem; align-items: center; margin-bottom: 0.3rem; }
.diagram-toolbar button { font: inherit; min-width: 2.2rem; padding: 0.1rem 0.5rem; cursor: pointer; }
.diagram-zoom-level { color: #57606a; font-size: 0.9em; margin-left: 0.3rem; }
.diagram-viewport { display: inline-block; vertical-align: top; max-width: 100%; overflow: auto; max-height: 85vh; border: 1px solid #d0d7de; border-radius: 6px; cursor: grab; }
.diagram-viewport[data-dragging] { cursor: grabbing; user-select: none; }
.diagram-viewport:focus-visible { outline: 2px solid #0969da; outline-offset: 2px; }
.diagram-viewport svg { display: block; }
.diagram pre.mermaid-source { white-space: pre; color: #57606a; }
.diagram[data-rendered="error"] { border: 2px solid #cf222e; padding: 0.5rem; }
`;

/**
 * The script that draws every diagram (with diagram-view.js, loaded before it) and records, per
 * diagram, whether Mermaid accepted it. State diagrams get the zoom and pan of diagram-view.js.
 */
export const DOCS_SCRIPT = `
(async () => {
  const diagrams = Array.from(document.querySelectorAll('.diagram'));
  for (const [index, diagram] of diagrams.entries()) {
    const source = diagram.querySelector('pre.mermaid-source').textContent;
    const state = diagram.dataset.diagram === 'state';
    await batonDiagrams.draw(diagram, 'diagram-' + index, source, { zoom: state, name: 'State diagram' });
  }
  document.documentElement.dataset.diagrams = 'done';
})();
`;

export interface HtmlExtras {
  /** HTML placed before the page's first heading (the tool pages' "Try it" panel). */
  panel?: string;
  /**
   * More stylesheets and scripts, by file name under `<base>/assets/` (or by absolute path, as
   * `baton dev` serves the editor's), loaded after the docs' own.
   */
  styles?: string[];
  scripts?: string[];
}

export function renderHtml(page: DocPage, base: string, extras: HtmlExtras = {}): string {
  const asset = (name: string) => escapeHtml(name.startsWith('/') ? name : `${base}/assets/${name}`);
  const blocks = page.blocks.map((b) => block(b, base));
  if (extras.panel) {
    const at = page.blocks.findIndex((b) => b.type === 'heading');
    blocks.splice(at < 0 ? blocks.length : at, 0, extras.panel);
  }
  const home = page.ref.kind === 'index' ? '' : ` · <a href="${escapeHtml(base)}">all docs</a>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · Baton docs</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeHtml(base)}/assets/docs.css">
${(extras.styles ?? []).map((name) => `<link rel="stylesheet" href="${asset(name)}">\n`).join('')}</head>
<body>
<header><strong>Baton</strong>${home}</header>
<main>
<h1>${(page.icons ?? []).map((icon) => `<img class="icon" src="${escapeHtml(icon.src)}" alt="">`).join('')}${escapeHtml(page.title)}</h1>
${blocks.join('\n')}
</main>
<script src="${escapeHtml(base)}/assets/mermaid.min.js"></script>
<script src="${escapeHtml(base)}/assets/diagram-view.js"></script>
<script src="${escapeHtml(base)}/assets/docs.js"></script>
${(extras.scripts ?? []).map((name) => `<script src="${asset(name)}"></script>\n`).join('')}</body>
</html>
`;
}
