/**
 * The authentication seam: turns a Koa request into a principal, or refuses it. Without a hook,
 * every caller is the anonymous principal (fine on loopback; put real auth in front of a fleet).
 * A hook refuses by throwing AuthenticationError; every route answers it the same way, 401 (or
 * 403 for missing scope) with the WWW-Authenticate challenge (authenticate-or-challenge.ts).
 */
import type { Context } from 'koa';
import { ANONYMOUS, type Principal } from '../protocol/index.js';

/** May answer at once: the endpoint only waits when the hook returns a promise. */
export type Authenticate = (ctx: Context) => Principal | Promise<Principal>;

/** Why a request was refused, as the `WWW-Authenticate` challenge will say. */
export interface AuthenticationFailure {
  /** RFC 6750 error code: `invalid_token` for a bad token, `insufficient_scope` (then 403). */
  error?: 'invalid_token' | 'insufficient_scope';
  /** Scopes the request needs, all of them (spec: give all at once). */
  scope?: string;
  /** The credentials could not be checked now (their issuer is out of reach): 503 with Retry-After. */
  retryAfterSeconds?: number;
}

/** Thrown by an `authenticate` hook to refuse a request: 401, or 403 for `insufficient_scope`. */
export class AuthenticationError extends Error {
  constructor(
    message: string,
    readonly failure: AuthenticationFailure = {},
  ) {
    super(message);
  }

  get status(): number {
    if (this.failure.retryAfterSeconds !== undefined) return 503;
    return this.failure.error === 'insufficient_scope' ? 403 : 401;
  }
}

/**
 * Who is in front of a page the server serves (a URL elicitation page), as a principal id: the
 * same hook that authenticates MCP requests, or `anonymous` when there is none; undefined when
 * the hook refuses. Pages compare it with the principal that started the flow (verifyPageVisit).
 */
export function pageVisitor(authenticate?: Authenticate): (ctx: Context) => Promise<string | undefined> {
  if (!authenticate) return async () => ANONYMOUS.id;
  return async (ctx) => {
    try {
      return (await authenticate(ctx)).id;
    } catch (error) {
      if (error instanceof AuthenticationError) return undefined;
      throw error;
    }
  };
}
