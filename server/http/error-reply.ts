/**
 * The one way the HTTP edge writes a refusal of its own (a missing token, a body too large, a
 * busy instance, an unknown session, a wrong method or Origin): the status, and a JSON-RPC error
 * response as the body, on every route of both eras. Answers the dispatcher or the 2025-11-25
 * layer produce go through the ResponseChannel instead; a refusal comes before anything was sent.
 *
 * It goes straight to Node, at once, before the parser reads on (a body cut short, a connection
 * to close), and in one write with its headers. Content-Length is set here so a HEAD gets it too,
 * as Koa would have sent it; headers set on the context earlier (a challenge, Retry-After) stay.
 */
import type { Context } from 'koa';
import { errorResponse, type ProtocolError, type RequestId } from '../protocol/index.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Writes `status` with `error` as a JSON-RPC error response answering `id` (none when unknown). */
export function replyError(ctx: Context, status: number, error: ProtocolError, id?: RequestId): void {
  const body = JSON.stringify(errorResponse(id, error));
  const res = ctx.res;
  ctx.respond = false;
  res.statusCode = status;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
