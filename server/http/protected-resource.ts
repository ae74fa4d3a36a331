/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728), which the spec requires of a protected MCP
 * server: served at `/.well-known/oauth-protected-resource<endpoint path>` and at the bare
 * well-known path, and named in every 401 challenge.
 */
import Router from '@koa/router';
import type { Context } from 'koa';

/** What the RFC 9728 protected-resource metadata says: this endpoint and its authorization servers. */
export interface ProtectedResourceOptions {
  /** The canonical URI of the MCP endpoint, e.g. `https://mcp.example.com/mcp`. */
  resource: string;
  /** At least one authorization server issuer URL (spec: MUST). */
  authorizationServers: string[];
  scopesSupported?: string[];
}

export const WELL_KNOWN = '/.well-known/oauth-protected-resource';

export function resourceMetadataUrl(options: ProtectedResourceOptions): string {
  const url = new URL(options.resource);
  return `${url.origin}${WELL_KNOWN}${url.pathname === '/' ? '' : url.pathname}`;
}

export function protectedResourceRouter(options: ProtectedResourceOptions): Router {
  const document = {
    resource: options.resource,
    authorization_servers: options.authorizationServers,
    bearer_methods_supported: ['header'],
    ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
    resource_name: 'Baton MCP server',
  };
  const router = new Router();
  const path = new URL(options.resource).pathname;
  const serve = (ctx: Context) => {
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = document;
  };
  router.get(WELL_KNOWN, serve);
  if (path !== '/') router.get(`${WELL_KNOWN}${path}`, serve);
  return router;
}
