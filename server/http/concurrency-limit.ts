/**
 * Caps the requests one instance works on at once, so one client flooding it cannot starve the
 * rest. Over the cap: 503 with Retry-After, and a JSON-RPC error that names the limit.
 */
import type { Middleware } from 'koa';

export function concurrencyLimit(max: number): Middleware {
  let active = 0;
  return async (ctx, next) => {
    if (active >= max) {
      ctx.status = 503;
      ctx.set('Retry-After', '1');
      ctx.type = 'application/json';
      ctx.body = JSON.stringify({
        jsonrpc: '2.0',
        error: { code: -32603, message: `Server busy: over the limit of ${max} concurrent requests; retry shortly` },
      });
      return;
    }
    active += 1;
    try {
      await next();
    } finally {
      active -= 1;
    }
  };
}
