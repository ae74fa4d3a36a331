/**
 * Baton as an OAuth 2.1 resource server in one option (`createServer({ oauth })`, or
 * BATON_AUTH_SERVERS for `baton serve`): the access-token hook and the RFC 9728 metadata that
 * names the issuers, built from the same settings so the two cannot disagree.
 */
import { ConfigurationError, type Logger } from '../engine/index.js';
import { AccessTokenVerifier, isSecureEnough, type AccessTokenOptions } from '../identity/index.js';
import { accessTokenAuthentication } from './access-token-authentication.js';
import type { Authenticate } from './authenticate.js';
import type { ProtectedResourceOptions } from './protected-resource.js';

/** `createServer({ oauth })`: the endpoint's URI and the issuers whose access tokens it accepts. */
export interface OAuthOptions extends Omit<AccessTokenOptions, 'audience' | 'logger'> {
  /**
   * The canonical URI of the MCP endpoint (RFC 8707 section 2), e.g. `https://mcp.example.com/mcp`:
   * the `resource` of the protected-resource metadata, and the audience tokens must name.
   */
  resource: string;
  /** An audience other than `resource` that the issuers put in `aud` (BATON_AUDIENCE). */
  audience?: string;
  /** Static development tokens accepted besides (BATON_TOKENS): `token -> principal`. */
  staticTokens?: Map<string, string>;
}

export interface OAuthResourceServer {
  authenticate: Authenticate;
  protectedResource: ProtectedResourceOptions;
  verifier: AccessTokenVerifier;
}

/** A problem with an issuer URL, or undefined (spec: authorization server endpoints MUST be HTTPS). */
export function issuerProblem(issuer: string): string | undefined {
  if (!URL.canParse(issuer)) return `"${issuer}" is not an absolute URL`;
  const url = new URL(issuer);
  if (!isSecureEnough(url)) return `"${issuer}" must be https:// (http:// only on a loopback address)`;
  // RFC 8414 section 2: an issuer has no query or fragment; `|` would make principal ids ambiguous.
  if (url.search || url.hash || issuer.includes('|')) return `"${issuer}" must have no query, fragment or "|"`;
  return undefined;
}

export function oauthResourceServer(options: OAuthOptions, logger?: Logger): OAuthResourceServer {
  const problems = options.issuers.map(issuerProblem).filter((problem) => problem !== undefined);
  if (options.issuers.length === 0) problems.push('name at least one issuer');
  if (!URL.canParse(options.resource) || new URL(options.resource).hash) {
    problems.push(`the resource "${options.resource}" must be an absolute URL without a fragment`);
  }
  if (problems.length > 0) throw new ConfigurationError(`OAuth settings: ${problems.join('; ')}.`);
  const { resource, audience, staticTokens, ...verifying } = options;
  const verifier = new AccessTokenVerifier({
    ...verifying,
    audience: audience ?? resource,
    ...(logger ? { logger } : {}),
  });
  return {
    authenticate: accessTokenAuthentication(verifier, staticTokens),
    protectedResource: { resource, authorizationServers: [...options.issuers] },
    verifier,
  };
}
