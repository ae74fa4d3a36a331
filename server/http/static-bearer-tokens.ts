/**
 * A built-in verifier for simple deployments: static bearer tokens from configuration
 * (`BATON_TOKENS=principal:token,…`), compared in constant time. For OAuth, write an Authenticate
 * hook that validates the token's signature, expiry and audience (docs/security.md).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { ConfigurationError } from '../engine/index.js';
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

export function staticBearerTokens(tokens: Map<string, string>): Authenticate {
  // Digests of equal length let every comparison take the same time, whatever the input.
  const known = [...tokens].map(([token, principal]) => ({ digest: digest(token), principal }));
  return async (ctx) => {
    const header = ctx.get('authorization');
    const match = BEARER_HEADER.exec(header);
    if (!match) throw new AuthenticationError('Authorization required: send a bearer token');
    const presented = digest(match[1]!);
    let principal: string | undefined;
    for (const entry of known) if (timingSafeEqual(entry.digest, presented)) principal = entry.principal;
    if (principal === undefined) {
      throw new AuthenticationError('The bearer token is not valid', { error: 'invalid_token' });
    }
    return { id: `token:${principal}`, authenticated: true };
  };
}
