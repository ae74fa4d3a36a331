/**
 * DNS-rebinding protection (spec, transports/streamable-http "Security"): a request whose Origin
 * is present and not allowed gets 403; when the server is bound to loopback, the Host header must
 * name a loopback host too, so a rebound hostname never reaches a local server.
 */
import type { Context, Middleware } from 'koa';
import { ErrorCode, ProtocolError } from '../protocol/index.js';
import { replyError } from './error-reply.js';

/** Which `Origin` and `Host` headers the endpoint accepts (DNS-rebinding protection). */
export interface OriginPolicy {
  /** Origins allowed besides the server's own host, e.g. `https://app.example.com`. */
  allowedOrigins?: string[];
  /** Host names (no port) a request may address; empty means any. */
  allowedHosts?: string[];
}

export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]', '::1'];

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.includes(host) || host.startsWith('127.');
}

function hostnameOf(hostHeader: string): string {
  // Host is `name[:port]`, or `[v6]:port`.
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1).toLowerCase();
  return hostHeader.split(':')[0]!.toLowerCase();
}

function forbidden(ctx: Context, message: string): void {
  replyError(ctx, 403, new ProtocolError(ErrorCode.InvalidRequest, message));
}

export function originGuard(policy: OriginPolicy): Middleware {
  const allowedHosts = new Set((policy.allowedHosts ?? []).map((h) => h.toLowerCase()));
  const allowedOrigins = new Set(policy.allowedOrigins ?? []);
  // A client sends the same Host on every request: the last one judged is remembered.
  let lastHost: string | undefined;
  let lastHostAllowed = false;
  const hostAllowed = (host: string) => {
    if (host !== lastHost) {
      lastHost = host;
      lastHostAllowed = allowedHosts.has(hostnameOf(host));
    }
    return lastHostAllowed;
  };
  return (ctx, next) => {
    if (allowedHosts.size > 0 && !hostAllowed(ctx.get('host'))) {
      forbidden(ctx, 'Forbidden: this server does not answer for that Host');
      return;
    }
    const origin = ctx.get('origin');
    if (origin && !allowedOrigins.has(origin)) {
      let originHost: string | undefined;
      try {
        originHost = new URL(origin).host.toLowerCase();
      } catch {
        originHost = undefined;
      }
      const sameHost = originHost !== undefined && originHost === ctx.get('host').toLowerCase();
      const hostAllowed = allowedHosts.size === 0 || allowedHosts.has(hostnameOf(originHost ?? ''));
      if (!sameHost || !hostAllowed) {
        forbidden(ctx, 'Forbidden: Origin not allowed');
        return;
      }
    }
    return next();
  };
}
