/**
 * One request's response on Streamable HTTP. It starts as a plain JSON response and switches to
 * an SSE stream at the first notification (progress), which is only possible while no header has
 * been sent; so the validation ladder always runs before anything is streamed.
 */
import type { Context } from 'koa';
import { endAfterTurn } from './end-after-turn.js';
import { PreparedNotification } from '../protocol/index.js';

const JSON_TYPE = 'application/json; charset=utf-8';
/** Notification bytes a stream may hold unread by its client before it is closed (8 MiB). */
export const MAX_UNREAD_BYTES = 8 * 1024 * 1024;

export class ResponseChannel {
  #streaming = false;
  readonly #ctx: Context;

  constructor(ctx: Context) {
    this.#ctx = ctx;
  }

  get streaming(): boolean {
    return this.#streaming;
  }

  /**
   * Sends a notification for this request, opening the SSE stream if needed. A client that does not
   * read its stream is cut off once MAX_UNREAD_BYTES wait for it, rather than held in memory.
   */
  notify(message: unknown): void {
    const res = this.#ctx.res;
    if (res.destroyed || res.writableEnded) return;
    if (res.writableLength > MAX_UNREAD_BYTES) {
      res.destroy();
      return;
    }
    if (!this.#streaming) {
      this.#streaming = true;
      this.#ctx.respond = false;
      res.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache, no-transform',
        // Proxies such as nginx must pass events through as they come.
        'X-Accel-Buffering': 'no',
      });
    }
    if (message instanceof PreparedNotification) {
      // The shared part is written as it is: one buffer for every stream it goes to.
      const [head, shared, tail] = message.parts();
      res.write(`data: ${head}`);
      res.write(shared);
      res.write(`${tail}\n\n`);
      return;
    }
    res.write(`data: ${JSON.stringify(message)}\n\n`);
  }

  /** An SSE comment on an open stream, so proxies and clients do not take an idle stream for dead. */
  keepAlive(): void {
    const res = this.#ctx.res;
    if (this.#streaming && !res.destroyed && !res.writableEnded) res.write(': keep-alive\n\n');
  }

  /**
   * Sends the final message: the last SSE event, or the JSON body. The JSON body goes out with its
   * headers in one write, straight to Node (Koa's body handling would only redo what is known here).
   * It goes out at once, for the 2025-11-25 layer's answers that must not wait for the turn (an
   * initialize, a refused call); the edge's own refusals go through error-reply.ts.
   */
  finish(status: number, message: unknown): void {
    const body = this.#jsonBody(status, message);
    if (body !== undefined) this.#ctx.res.end(body);
  }

  /**
   * The same, for a request's answer: a JSON body is written once this turn's other requests are
   * answered too, together with theirs (end-after-turn.ts).
   */
  finishAfterTurn(status: number, message: unknown): void {
    const body = this.#jsonBody(status, message);
    if (body !== undefined) endAfterTurn(this.#ctx.res, body);
  }

  /** Sets the status and headers of a JSON response and returns its body; ends an SSE stream. */
  #jsonBody(status: number, message: unknown): string | undefined {
    const res = this.#ctx.res;
    if (this.#streaming) {
      if (!res.destroyed && !res.writableEnded) res.end(`data: ${JSON.stringify(message)}\n\n`);
      return undefined;
    }
    const body = JSON.stringify(message);
    this.#ctx.respond = false;
    // Headers set earlier on the context (ctx.set) are already on `res` and are kept by writeHead.
    res.statusCode = status;
    res.setHeader('Content-Type', JSON_TYPE);
    // end() with the whole body and no header sent yet sets Content-Length itself (one byteLength).
    return body;
  }

  /** Ends the response without a message (cancelled request): a 204, or the end of the stream. */
  abandon(): void {
    const res = this.#ctx.res;
    this.#ctx.respond = false;
    if (this.#streaming) res.end();
    else if (!res.headersSent && !res.destroyed) res.writeHead(204).end();
  }
}
