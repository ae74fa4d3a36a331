/**
 * The browser side of the diagrams, for pages other than the docs (the console): the `mermaid`
 * bundle, ELK's ES modules (`@mermaid-js/layout-elk`) and diagram-view.js, served from the
 * package's own dependencies under `<base>/assets/` exactly as the docs pages serve them
 * (docs-routes.ts), so the console draws the very diagrams the docs draw, with no CDN. Only files
 * listed here are served, by exact name: no request path reaches the file system.
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

function diagramFiles(what: string): DiagramFiles {
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
      `${what} needs the "mermaid" and "@mermaid-js/layout-elk" packages (npm install) to draw its diagrams.`,
    );
  }
}

/** Sends a file as an asset; operators' pages are private, so browsers keep them for themselves only. */
function sendFile(ctx: Context, type: string, path: string): void {
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cache-Control', 'private, max-age=3600');
  ctx.type = type;
  ctx.body = createReadStream(path);
}

/**
 * Adds `<base>/assets/mermaid.min.js`, `diagram-view.js`, the named page scripts (from
 * server/http/assets) and `layout-elk/…` to `router`, each behind `guard`.
 */
export function diagramAssetRoutes(
  router: Router,
  options: { base: string; guard: Middleware; scripts: string[]; what: string },
): void {
  const files = diagramFiles(options.what);
  const { base, guard } = options;
  router.get(`${base}/assets/mermaid.min.js`, guard, (ctx) => sendFile(ctx, 'application/javascript', files.mermaid));
  for (const name of ['diagram-view.js', ...options.scripts]) {
    router.get(`${base}/assets/${name}`, guard, (ctx) => sendFile(ctx, 'application/javascript', join(ASSETS, name)));
  }
  // Module scripts need a JavaScript MIME type; the chunks' names carry a content hash.
  router.get(`${base}/assets/layout-elk/${ELK_ENTRY}`, guard, (ctx) =>
    sendFile(ctx, 'text/javascript', files.elkEntry),
  );
  router.get(`${base}/assets/layout-elk/${ELK_CHUNKS}/:name`, guard, async (ctx, next) => {
    const name = ctx.params.name!;
    if (!files.elkNames.has(name)) return next(); // 404
    sendFile(ctx, 'text/javascript', join(files.elkChunks, name));
  });
}
