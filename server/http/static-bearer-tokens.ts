/**
 * A built-in verifier for simple deployments: static bearer tokens from configuration
 * (`BATON_TOKENS=principal:token,…`), compared in constant time. OAuth access tokens are checked
 * by access-token-authentication.ts (docs/security.md).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { ConfigurationError } from '../engine/index.js';
import type { Principal } from '../protocol/index.js';
import { AuthenticationError, type Authenticate } from './authenticate.js';

const MIN_TOKEN_LENGTH = 16;

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** RFC 6750 `b64token`, the characters a bearer token may have. */
const B64TOKEN = '[A-Za-z0-9\\-._~+/]+=*';
const BEARER_TOKEN = new RegExp(`^${B64TOKEN}$`);
const BEARER_HEADER = new RegExp(`^Bearer\\s+(${B64TOKEN})\\s*$`, 'i');

/** Parses `principal:token` entries, failing with a message that says how to fix them. */

export function parseStaticTokens(spec: string): Map<string, string> {
  const tokens = new Map<string, string>();
  for (const entry of spec
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const colon = entry.indexOf(':');
    const principal = entry.slice(0, colon);
    const token = entry.slice(colon + 1);
    if (colon <= 0 || token.length < MIN_TOKEN_LENGTH) {
      throw new ConfigurationError(
        `BATON_TOKENS entries are "principal:token" with a token of at least ${MIN_TOKEN_LENGTH} characters.`,
      );
    }
    // A token a client cannot send in `Authorization: Bearer` (RFC 6750 b64token) could never match.
    if (!BEARER_TOKEN.test(token)) {
      throw new ConfigurationError(
        `BATON_TOKENS: the token of "${principal}" has characters a bearer token cannot carry (use A-Z a-z 0-9 - . _ ~ + / and trailing =).`,
      );
    }
    tokens.set(token, principal);
  }
  if (tokens.size === 0) throw new ConfigurationError('BATON_TOKENS is set but holds no "principal:token" entry.');
  return tokens;
}

/** The token of `Authorization: Bearer <token>`; a request without one is refused (401, no error code). */
export function bearerToken(ctx: Context): string {
  const match = BEARER_HEADER.exec(ctx.get('authorization'));
  if (!match) throw new AuthenticationError('Authorization required: send a bearer token');
  return match[1]!;
}

/** The principal a static token names, or undefined for any other token. */
export function staticTokenPrincipal(tokens: Map<string, string>): (token: string) => Principal | undefined {
  // Digests of equal length let every comparison take the same time, whatever the input.
  const known = [...tokens].map(([token, principal]) => ({ digest: digest(token), principal }));
  return (token) => {
    const presented = digest(token);
    let principal: string | undefined;
    for (const entry of known) if (timingSafeEqual(entry.digest, presented)) principal = entry.principal;
    return principal === undefined ? undefined : { id: `token:${principal}`, authenticated: true };
  };
}

/**
 * An `authenticate` hook for a fixed set of bearer tokens (token to principal name, as
 * `parseStaticTokens(process.env.BATON_TOKENS)` reads them); any other request gets 401.
 */
export function staticBearerTokens(tokens: Map<string, string>): Authenticate {
  const principalOf = staticTokenPrincipal(tokens);
  return async (ctx) => {
    const principal = principalOf(bearerToken(ctx));
    if (!principal) throw new AuthenticationError('The bearer token is not valid', { error: 'invalid_token' });
    return principal;
  };
}
