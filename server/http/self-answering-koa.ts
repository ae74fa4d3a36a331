/**
 * Koa, without its per-request finish listener on the requests that write their own answer.
 *
 * Koa's `handleRequest` hands every response to `on-finished`, so that an error on the response or
 * its socket before it finishes reaches `ctx.onerror`. That costs an AsyncResource, listeners on
 * the response and on its socket, and their removal once it finishes: about 3 % of the busy
 * samples in a CPU profile of the one-question flow, and 0.96x server CPU per request without it
 * (bench:compare at c=64, one- and three-question, 40 windows on 8 process pairs each).
 *
 * The MCP endpoint needs none of it. It writes every answer itself, straight to Node
 * (`ctx.respond = false`: error-reply.ts, response-channel.ts), so Koa's `respond` has nothing to
 * do; it listens for the client closing on its own (the request's cancellation); and an error on
 * the socket is Node's to handle (the server's `clientError`), as it is for any connection. What
 * such a request throws still goes to `ctx.onerror`, as in Koa. Every other request (the docs,
 * the health check, the 405s, a 2025-11-25 GET or DELETE) goes through Koa's own `handleRequest`.
 *
 * `handleRequest` is Koa's own (marked private): it is replaced only on a Koa inside TESTED_KOA
 * whose handleRequest is still what this was written against (the Koa 3 one that attaches
 * `onFinished` and then runs the middleware); otherwise every request takes Koa's path and
 * `selfAnswering` is false, which a test asserts.
 */
import Koa, { type Context } from 'koa';
import { installedVersion, outsideWindow, type VersionWindow } from '../engine/index.js';

type ComposedMiddleware = (ctx: Context) => Promise<unknown>;

/** The Koa versions the override was tested with (package.json's `koa` range says the same). */
export const TESTED_KOA: VersionWindow = ['3.3.0', '3.4.0'];

/**
 * Why Koa's handleRequest may not be replaced here, or undefined when it may: the installed Koa
 * is one this was tested with, and its handleRequest is still (ctx, fnMiddleware), finishing via
 * on-finished.
 */
export function koaOverrideProblem(version = installedVersion('koa')): string | undefined {
  const untested = outsideWindow('koa', version, TESTED_KOA);
  if (untested) return untested;
  const own = (Koa.prototype as unknown as { handleRequest?: unknown }).handleRequest;
  const expected = typeof own === 'function' && own.length === 2 && /\bonFinished\(/.test(own.toString());
  return expected ? undefined : "this Koa's handleRequest is not the one Baton was tested with";
}

/** Thrown into ctx.onerror (a 500, and app's 'error') when a self-answering request was left unanswered. */
export class UnansweredRequestError extends Error {
  constructor(method: string, path: string) {
    super(`${method} ${path} was meant to write its own answer and did not`);
    this.name = 'UnansweredRequestError';
  }
}

export class SelfAnsweringKoa extends Koa {
  /** Why Koa's handleRequest is not replaced here, if it is not (then every request takes Koa's own). */
  readonly overrideProblem = koaOverrideProblem();
  /** Whether Koa's handleRequest could be replaced here (false: every request takes Koa's own). */
  readonly selfAnswering = this.overrideProblem === undefined;
  readonly #answersItself: (ctx: Context) => boolean;

  /** `answersItself` picks the requests whose middleware always writes the answer to Node itself. */
  constructor(answersItself: (ctx: Context) => boolean) {
    super();
    this.#answersItself = answersItself;
  }

  handleRequest(ctx: Context, fnMiddleware: ComposedMiddleware): Promise<unknown> {
    if (!this.selfAnswering || !this.#answersItself(ctx)) {
      const koa = Koa.prototype as unknown as { handleRequest: SelfAnsweringKoa['handleRequest'] };
      return koa.handleRequest.call(this, ctx, fnMiddleware);
    }
    // As Koa starts every response; the middleware sets its own status.
    ctx.res.statusCode = 404;
    return fnMiddleware(ctx)
      .then(() => {
        // A refusal or answer written to Node leaves nothing for Koa to send; a request left
        // without one would otherwise hang until the client gives up.
        if (ctx.respond !== false && !ctx.res.headersSent) throw new UnansweredRequestError(ctx.method, ctx.path);
      })
      .catch((error: unknown) => ctx.onerror(error as Error));
  }
}
