/**
 * The browser side of the diagrams, for every page that draws them (the docs and the console):
 * the `mermaid` bundle, ELK's ES modules (`@mermaid-js/layout-elk`), diagram-view.js and the
 * page's own scripts and styles, served from the package's own dependencies under
 * `<base>/assets/`, with no CDN (it works without internet). Only files listed here are served,
 * by exact name: no request path reaches the file system.
 */
import { createReadStream, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { ConfigurationError } from '../engine/index.js';
import { PACKAGE_ROOT } from '../package-root.js';

const ASSETS = join(PACKAGE_ROOT, 'server', 'http', 'assets');
const ELK_ENTRY = 'mermaid-layout-elk.esm.min.mjs';
const ELK_CHUNKS = 'chunks/mermaid-layout-elk.esm.min';

interface DiagramFiles {
  mermaid: string;
  elkEntry: string;
  elkChunks: string;
  elkNames: Set<string>;
}

function diagramFiles(what: string, fix: string): DiagramFiles {
  try {
    const require = createRequire(import.meta.url);
    const elkEntry = require.resolve(`@mermaid-js/layout-elk/dist/${ELK_ENTRY}`);
    const elkChunks = join(dirname(elkEntry), ELK_CHUNKS);
    return {
      mermaid: require.resolve('mermaid/dist/mermaid.min.js'),
      elkEntry,
      elkChunks,
      elkNames: new Set(readdirSync(elkChunks).filter((name) => /^[\w.-]+\.mjs$/.test(name))),
    };
  } catch {
    throw new ConfigurationError(
      `${what} need the "mermaid" and "@mermaid-js/layout-elk" packages (npm install) to draw diagrams${fix}.`,
    );
  }
}

export interface DiagramAssetOptions {
  base: string;
  /** Runs before every asset (the console's operator check); none for public pages. */
  guard?: Middleware;
  /** The page's own scripts and styles, from server/http/assets. */
  scripts?: string[];
  styles?: string[];
  /** Who needs them, for the start-up error ("The docs pages"), and how else to fix it. */
  what: string;
  fix?: string;
  /** `public` for the docs; `private` for operators' pages, kept by their browser only. */
  cache: 'public' | 'private';
}

/** Adds `<base>/assets/…`: mermaid, ELK's modules, diagram-view.js and the page's files. */
export function diagramAssetRoutes(router: Router, options: DiagramAssetOptions): void {
  const files = diagramFiles(options.what, options.fix ?? '');
  const { base } = options;
  const guard: Middleware = options.guard ?? ((_ctx, next) => next());
  const send = (ctx: Context, type: string, path: string) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', `${options.cache}, max-age=3600`);
    ctx.type = type;
    ctx.body = createReadStream(path);
  };
  router.get(`${base}/assets/mermaid.min.js`, guard, (ctx) => send(ctx, 'application/javascript', files.mermaid));
  for (const name of ['diagram-view.js', ...(options.scripts ?? [])]) {
    router.get(`${base}/assets/${name}`, guard, (ctx) => send(ctx, 'application/javascript', join(ASSETS, name)));
  }
  for (const name of options.styles ?? []) {
    router.get(`${base}/assets/${name}`, guard, (ctx) => send(ctx, 'text/css', join(ASSETS, name)));
  }
  // Module scripts need a JavaScript MIME type; the chunks' names carry a content hash.
  router.get(`${base}/assets/layout-elk/${ELK_ENTRY}`, guard, (ctx) => send(ctx, 'text/javascript', files.elkEntry));
  router.get(`${base}/assets/layout-elk/${ELK_CHUNKS}/:name`, guard, async (ctx, next) => {
    const name = ctx.params.name!;
    if (!files.elkNames.has(name)) return next(); // 404
    send(ctx, 'text/javascript', join(files.elkChunks, name));
  });
}
