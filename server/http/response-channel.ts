/**
 * One request's response on Streamable HTTP. It starts as a plain JSON response and switches to
 * an SSE stream at the first notification (progress), which is only possible while no header has
 * been sent; so the validation ladder always runs before anything is streamed.
 */
import type { Context } from 'koa';

export class ResponseChannel {
  #streaming = false;
  readonly #ctx: Context;
  readonly #headers: Record<string, string>;

  constructor(ctx: Context, headers: Record<string, string> = {}) {
    this.#ctx = ctx;
    this.#headers = headers;
  }

  get streaming(): boolean {
    return this.#streaming;
  }

  /** Sends a notification for this request, opening the SSE stream if needed. */
  notify(message: unknown): void {
    const res = this.#ctx.res;
    if (res.destroyed || res.writableEnded) return;
    if (!this.#streaming) {
      this.#streaming = true;
      this.#ctx.respond = false;
      res.writeHead(200, {
        ...this.#headers,
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache, no-transform',
        // Proxies such as nginx must pass events through as they come.
        'X-Accel-Buffering': 'no',
      });
    }
    res.write(`data: ${JSON.stringify(message)}\n\n`);
  }

  /** Sends the final message: the last SSE event, or the JSON body. */
  finish(status: number, message: unknown): void {
    if (this.#streaming) {
      const res = this.#ctx.res;
      if (!res.destroyed && !res.writableEnded) res.end(`data: ${JSON.stringify(message)}\n\n`);
      return;
    }
    this.#ctx.set(this.#headers);
    this.#ctx.status = status;
    this.#ctx.type = 'application/json';
    this.#ctx.body = JSON.stringify(message);
  }

  /** Ends the response without a message (cancelled request). */
  abandon(): void {
    if (this.#streaming) this.#ctx.res.end();
    else this.#ctx.status = 204;
  }
}
