/**
 * The diagram editor's routes, mounted by `baton dev` only (never by `baton serve` or
 * `createServer`): under `/dev/editor`,
 *
 *   GET  tools/<name>        the tool's source as the editor sees it (file, hash, outline) and the
 *                            token the page sends with every write
 *   POST tools/<name>/edit   `{ hash, edit }`: one edit (editor-edit.ts)
 *   POST tools/<name>/undo   `{ hash }`: undo the last edit of that file
 *   GET  assets/editor.js|editor.css
 *
 * They answer only a caller on this machine: the connection must come from loopback and Host must
 * name a loopback host (DNS rebinding), whatever the server's own Host list. A write must also
 * carry an Origin that is this very server, a JSON body, and the token (a header, so a cross-site
 * form can neither send it nor read it: the GET has no CORS, so only this origin reads the token).
 * Refusals: 403 for who is asking, 400 for a malformed edit, 404 for an unknown tool, 409 when
 * the file changed since the page loaded it, 422 when the edited tool fails a check.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { createReadStream } from 'node:fs';
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { isLoopbackHost } from '../../http/index.js';
import type { Logger } from '../../engine/index.js';
import { PACKAGE_ROOT } from '../../package-root.js';
import { EditRefused, readEdit } from './editor-edit.js';
import type { ToolEditor } from './tool-editor.js';

export const EDITOR_BASE = '/dev/editor';
export const EDITOR_TOKEN_HEADER = 'baton-editor-token';
const MAX_BODY_BYTES = 64 * 1024;
const ASSETS = join(PACKAGE_ROOT, 'server', 'http', 'assets');

const STATUS: Record<EditRefused['reason'], number> = { invalid: 400, 'unknown-tool': 404, stale: 409, checks: 422 };

function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1).toLowerCase();
  return host.split(':')[0]!.toLowerCase();
}

function refuse(ctx: Context, status: number, message: string, reason = 'forbidden'): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error: { reason, message } };
}

function loopbackAddress(address: string | undefined): boolean {
  return (
    address !== undefined && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'))
  );
}

async function jsonBody(ctx: Context): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new EditRefused(`The body is larger than ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new EditRefused('The body is not JSON.');
  }
}

export interface EditorRoutesOptions {
  /** The editor, once there is one (`baton dev` makes it when the served registry exists). */
  editor: () => ToolEditor | undefined;
  logger: Logger;
  /** The token writes carry (default: 32 random bytes, new each `baton dev`). */
  token?: string;
}

export function editorRouter(options: EditorRoutesOptions): Router {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const router = new Router({ prefix: EDITOR_BASE });

  const onThisMachine = async (ctx: Context, next: Next) => {
    if (!loopbackAddress(ctx.req.socket.remoteAddress) || !isLoopbackHost(hostnameOf(ctx.get('host')))) {
      return refuse(ctx, 403, 'The diagram editor answers only on this machine (loopback).');
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    return next();
  };
  const write = async (ctx: Context, next: Next) => {
    const origin = ctx.get('origin');
    if (!origin || origin !== `${ctx.protocol}://${ctx.get('host')}`) {
      return refuse(ctx, 403, 'An edit must come from this server’s own page (Origin).');
    }
    const sent = Buffer.from(ctx.get(EDITOR_TOKEN_HEADER));
    const expected = Buffer.from(token);
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
      return refuse(ctx, 403, 'An edit must carry the editor token the page was given (reload the page).');
    }
    if (!ctx.is('application/json')) return refuse(ctx, 415, 'An edit is a JSON body.', 'invalid');
    return next();
  };
  const answer = async (ctx: Context, work: (editor: ToolEditor) => Promise<unknown>) => {
    const editor = options.editor();
    if (!editor) return refuse(ctx, 503, 'The editor is starting.', 'starting');
    try {
      ctx.body = await work(editor);
    } catch (error) {
      if (!(error instanceof EditRefused)) throw error;
      options.logger.warn('editor_refused', { path: ctx.path, reason: error.reason, message: error.message });
      refuse(ctx, STATUS[error.reason], error.message, error.reason);
    }
  };
  const hashOf = (body: unknown) => {
    const hash = (body as { hash?: unknown } | null)?.hash;
    if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash))
      throw new EditRefused('hash must be the file hash the page loaded.');
    return hash;
  };
  const only = (body: unknown, fields: string[]) => {
    const extra = Object.keys((body ?? {}) as object).filter((key) => !fields.includes(key));
    if (typeof body !== 'object' || body === null || Array.isArray(body) || extra.length > 0) {
      throw new EditRefused(
        `The body holds exactly ${fields.join(' and ')}${extra.length ? `, not ${extra.join(', ')}` : ''}.`,
      );
    }
  };

  router.get('/tools/:name', onThisMachine, (ctx) =>
    answer(ctx, async (editor) => ({ ...(await editor.state(ctx.params.name!)), token })),
  );
  router.post('/tools/:name/edit', onThisMachine, write, (ctx) =>
    answer(ctx, async (editor) => {
      const body = await jsonBody(ctx);
      only(body, ['hash', 'edit']);
      const edit = readEdit((body as { edit: unknown }).edit);
      return editor.edit(ctx.params.name!, hashOf(body), edit);
    }),
  );
  router.post('/tools/:name/undo', onThisMachine, write, (ctx) =>
    answer(ctx, async (editor) => {
      const body = await jsonBody(ctx);
      only(body, ['hash']);
      return editor.undo(ctx.params.name!, hashOf(body));
    }),
  );
  for (const [name, type] of [
    ['editor.js', 'application/javascript'],
    ['editor.css', 'text/css'],
  ] as const) {
    router.get(`/assets/${name}`, onThisMachine, (ctx) => {
      ctx.type = type;
      ctx.body = createReadStream(join(ASSETS, name));
    });
  }
  return router;
}
