/**
 * `GET /docs` and `GET /docs/{tools,prompts,resources}/<name>`: the generated docs as HTML pages,
 * with the diagrams drawn in the browser by the `mermaid` package served from our own
 * dependencies (`/docs/assets/mermaid.min.js`; no CDN, so it works without internet) and laid out
 * by ELK (`@mermaid-js/layout-elk`, its ES modules under `/docs/assets/layout-elk/`). The pages
 * are the same model as the committed Markdown (server/docs-site).
 */
import Router from '@koa/router';
import { diagramAssetRoutes } from './diagram-assets.js';
import type { Context } from 'koa';
import type { DocsContent, DocPage, DocsSite, FlowKind, HtmlExtras, TryItAuth } from '../docs-site/index.js';
import type { Logger } from '../engine/index.js';

export interface DocsRoutesOptions {
  /** What the pages document; a function is read on each request (a live tool list, `baton dev`). */
  content: DocsContent | (() => DocsContent);
  logger: Logger;
  /** Where the pages are mounted (`/docs`). */
  base?: string;
  /** The MCP endpoint the tool pages' "Try it" panel calls (`/mcp`). */
  endpoint?: string;
  /** Whether the panel may send a bearer token (see try-it-panel.ts); `open` when there is no auth hook. */
  tryItAuth?: TryItAuth;
  /** More on a tool's page, after Try it: `baton dev`'s diagram editor (server/cli/editor), nothing else. */
  toolPageExtras?: (tool: string) => HtmlExtras;
}

// Mermaid draws with inline <style> in its SVG, hence 'unsafe-inline' for styles; scripts come
// only from this server, and nothing else may load or be framed. Images also come from the
// origins of the catalogue's icons (authors name them; a page names nothing else).
function contentSecurityPolicy(imageOrigins: string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data:", ...imageOrigins].join(' '),
    "font-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function iconOrigins(content: DocsContent): string[] {
  const entries = [...content.tools, ...(content.prompts ?? []), ...(content.resources ?? [])];
  const sources = entries.flatMap((entry) => entry.icons ?? []).map((icon) => new URL(icon.src));
  return [...new Set(sources.filter((url) => url.protocol !== 'data:').map((url) => url.origin))];
}

/** The page generator for one tool list, with the content security policies of its pages. */
interface LoadedSite {
  site: DocsSite;
  docs: typeof import('../docs-site/index.js');
  policies: { page: string; toolPage: string };
}

const KINDS: Record<string, FlowKind> = { tools: 'tool', prompts: 'prompt', resources: 'resource' };

export function docsRouter(options: DocsRoutesOptions): Router {
  const base = (options.base ?? '/docs').replace(/\/$/, '');
  const router = new Router();
  diagramAssetRoutes(router, {
    base,
    what: 'The docs pages',
    fix: ', or turn them off with createServer({ docs: false })',
    scripts: ['try-it-forms.js', 'try-it-wire.js', 'try-it-task.js', 'try-it.js'],
    styles: ['try-it.css'],
    cache: 'public',
  });
  // The generator is loaded on the first docs request, not at start-up: an instance that is never
  // asked for docs (a worker behind a balancer) starts as fast as one without them.
  let loaded: Promise<LoadedSite> | undefined;
  let documented: DocsContent['tools'] | undefined;
  const load = () => {
    const content = typeof options.content === 'function' ? options.content() : options.content;
    // A new tool list (a reload) makes a new site; the same list keeps the pages already made.
    const same =
      documented !== undefined &&
      documented.length === content.tools.length &&
      documented.every((tool, n) => tool === content.tools[n]);
    if (!same) {
      documented = content.tools;
      const pagePolicy = contentSecurityPolicy(iconOrigins(content));
      // A tool page's "Try it" panel also calls the MCP endpoint of this same origin, and nothing else.
      const policies = { page: pagePolicy, toolPage: `${pagePolicy}; connect-src 'self'` };
      loaded = import('../docs-site/index.js').then((docs) => ({ site: new docs.DocsSite(content), docs, policies }));
    }
    return loaded!;
  };

  const sendPage = async (ctx: Context, page: DocPage) => {
    const { docs, site, policies } = await load();
    let extras: HtmlExtras = {};
    const tool =
      page.ref.kind === 'tool'
        ? site.flows.find((f) => f.kind === 'tool' && docs.flowSlug(f) === (page.ref as { slug: string }).slug)
        : undefined;
    if (tool?.kind === 'tool') {
      const data = docs.tryItData(tool.definition, {
        endpoint: options.endpoint ?? '/mcp',
        auth: options.tryItAuth ?? 'open',
      });
      const more = options.toolPageExtras?.(tool.definition.name) ?? {};
      extras = {
        panel: docs.renderTryItPanel(data) + (more.panel ?? ''),
        styles: ['try-it.css', ...(more.styles ?? [])],
        scripts: ['try-it-forms.js', 'try-it-wire.js', 'try-it-task.js', 'try-it.js', ...(more.scripts ?? [])],
      };
    }
    ctx.set('Content-Security-Policy', tool ? policies.toolPage : policies.page);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'html';
    ctx.body = docs.renderHtml(page, base, extras);
  };
  const asset = (type: string, body: () => unknown) => async (ctx: Context) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.type = type;
    ctx.body = await body();
  };

  router.get(base, async (ctx) => sendPage(ctx, (await load()).site.index()));
  router.get(
    `${base}/assets/docs.js`,
    asset('application/javascript', async () => (await load()).docs.DOCS_SCRIPT),
  );
  router.get(
    `${base}/assets/docs.css`,
    asset('text/css', async () => (await load()).docs.DOCS_STYLE),
  );
  router.get(`${base}/:section/:name`, async (ctx) => {
    const kind = KINDS[ctx.params.section!];
    const { site } = await load();
    // Router params arrive decoded; slugs are the encoded names (a resource URI has slashes).
    const pending = kind ? site.page(kind, encodeURIComponent(ctx.params.name!)) : undefined;
    if (!pending) return; // 404
    try {
      await sendPage(ctx, await pending);
    } catch (error) {
      options.logger.error('docs_page_failed', { page: ctx.path, error: String((error as Error)?.stack ?? error) });
      ctx.status = 500;
      ctx.type = 'text';
      ctx.body = 'This page could not be generated; the server log says why.';
    }
  });
  return router;
}
