/**
 * The `WWW-Authenticate` challenge of every refusal, on every route and both eras (spec,
 * basic/authorization "Protected Resource Metadata Discovery" and "Scope Challenge Handling";
 * RFC 6750 section 3; RFC 9728 section 5.1): 401 for a missing or bad token, 403 for missing
 * scopes, each naming the scopes to ask for and where the protected-resource metadata is.
 */
import type { Context } from 'koa';
import type { AuthenticationFailure } from './authenticate.js';

export interface ChallengeOptions {
  /** The RFC 9728 metadata URL, named in every challenge when the server is protected. */
  resourceMetadataUrl?: string;
  /**
   * The scopes a 401 asks the client to request (its `scope`): the server's `scopes_supported`.
   * A 403 names the scopes of the refused operation instead.
   */
  scopes?: readonly string[];
}

/** The header value. Scopes are RFC 6749 scope tokens and URLs are encoded, so nothing needs escaping. */
export function bearerChallenge(failure: AuthenticationFailure, options: ChallengeOptions = {}): string {
  // RFC 6750 section 3.1: a request without any credentials gets no error code.
  const scope = failure.scope ?? (options.scopes && options.scopes.length > 0 ? options.scopes.join(' ') : undefined);
  const params = [
    failure.error ? `error="${failure.error}"` : undefined,
    scope ? `scope="${scope}"` : undefined,
    options.resourceMetadataUrl ? `resource_metadata="${options.resourceMetadataUrl}"` : undefined,
  ].filter(Boolean);
  return params.length > 0 ? `Bearer ${params.join(', ')}` : 'Bearer';
}

/**
 * Sets the challenge on the response; answers its HTTP status: 401, 403 for missing scopes, or
 * 503 with Retry-After when the credentials could not be checked (then nothing is challenged).
 */
export function writeChallenge(ctx: Context, failure: AuthenticationFailure, options: ChallengeOptions): number {
  if (failure.retryAfterSeconds !== undefined) {
    ctx.set('Retry-After', String(failure.retryAfterSeconds));
    return 503;
  }
  ctx.set('WWW-Authenticate', bearerChallenge(failure, options));
  return failure.error === 'insufficient_scope' ? 403 : 401;
}

/** The challenge for an operation refused for its scopes (protocol/scope-policy.ts). */
export function insufficientScope(scopes: readonly string[]): AuthenticationFailure {
  return { error: 'insufficient_scope', scope: scopes.join(' ') };
}
