/**
 * The editor panel of a tool's page under `baton dev`: the HTML the browser script
 * (server/http/assets/editor.js) fills in from `GET /dev/editor/tools/<name>`. The served docs
 * (`baton serve`, `createServer`) never carry it: only `baton dev` passes it to the pages.
 */
import type { HtmlExtras } from '../../docs-site/index.js';
import { escapeHtml } from '../../docs-site/index.js';
import { EDITOR_BASE } from './editor-routes.js';

export function editorPageExtras(tool: string): HtmlExtras {
  const api = `${EDITOR_BASE}/tools/${encodeURIComponent(tool)}`;
  return {
    panel: `<section class="editor" id="editor" aria-label="Edit this tool" data-api="${escapeHtml(api)}">
<h2>Edit this tool</h2>
<p>Changes are written into the tool's own source file, checked first as <code>baton dev</code> loads it; the diagram and Try it follow. Only here, under <code>baton dev</code>, on this machine.</p>
<div class="editor-panel" data-phase="loading"><noscript>The editor needs JavaScript.</noscript></div>
</section>`,
    styles: [`${EDITOR_BASE}/assets/editor.css`],
    scripts: [`${EDITOR_BASE}/assets/editor.js`],
  };
}
