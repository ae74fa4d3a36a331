/**
 * The authentication seam: turns a Koa request into a principal, or refuses it. Without a hook,
 * every caller is the anonymous principal (fine on loopback; put real auth in front of a fleet).
 * A hook refuses by throwing AuthenticationError; the endpoint answers 401 (or 403 for missing
 * scope) with a WWW-Authenticate challenge that points at the protected-resource metadata
 * (spec, basic/authorization; RFC 9728).
 */
import type { Context } from 'koa';
import type { Principal } from '../protocol/index.js';

export type Authenticate = (ctx: Context) => Promise<Principal>;

export interface AuthenticationFailure {
  /** RFC 6750 error code: `invalid_token` for a bad token, `insufficient_scope` (then 403). */
  error?: 'invalid_token' | 'insufficient_scope';
  /** Scopes the request needs, all of them (spec: give all at once). */
  scope?: string;
}

export class AuthenticationError extends Error {
  constructor(
    message: string,
    readonly failure: AuthenticationFailure = {},
  ) {
    super(message);
  }

  get status(): number {
    return this.failure.error === 'insufficient_scope' ? 403 : 401;
  }
}

/** The `WWW-Authenticate` value for a refusal. */
export function bearerChallenge(failure: AuthenticationFailure, resourceMetadataUrl?: string): string {
  const params = [
    failure.error ? `error="${failure.error}"` : undefined,
    failure.scope ? `scope="${failure.scope}"` : undefined,
    resourceMetadataUrl ? `resource_metadata="${resourceMetadataUrl}"` : undefined,
  ].filter(Boolean);
  return params.length > 0 ? `Bearer ${params.join(', ')}` : 'Bearer';
}
