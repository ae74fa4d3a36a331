/**
 * The one authentication step of every MCP route, both eras (the 2026-07-28 POST, the 2025-11-25
 * POST, GET and DELETE): runs the auth hook and, when it refuses, answers there and then with the
 * status and WWW-Authenticate challenge of bearer-challenge.ts (401, 403 for missing scopes, 503
 * with Retry-After when the credentials could not be checked) and the hook's message as a -32600
 * error. One step, so a challenge cannot differ between routes again.
 */
import type { Context } from 'koa';
import { ErrorCode, ProtocolError, type Principal } from '../protocol/index.js';
import { AuthenticationError, type Authenticate } from './authenticate.js';
import { writeChallenge, type ChallengeOptions } from './bearer-challenge.js';
import { replyError } from './error-reply.js';

/**
 * The caller, or undefined once the refusal has been written. Answers at once when the hook does
 * (the endpoint then awaits nothing); an error other than AuthenticationError is not a refusal and
 * is thrown on.
 */
export type AuthenticateOrChallenge = (ctx: Context) => Principal | undefined | Promise<Principal | undefined>;

export function authenticateOrChallenge(
  authenticate: Authenticate,
  challenge: ChallengeOptions,
): AuthenticateOrChallenge {
  const refuse = (ctx: Context, error: unknown): undefined => {
    if (!(error instanceof AuthenticationError)) throw error;
    const status = writeChallenge(ctx, error.failure, challenge);
    replyError(ctx, status, new ProtocolError(ErrorCode.InvalidRequest, error.message));
    return undefined;
  };
  return (ctx) => {
    let principal: Principal | Promise<Principal>;
    try {
      principal = authenticate(ctx);
    } catch (error) {
      return refuse(ctx, error);
    }
    return principal instanceof Promise ? principal.catch((error: unknown) => refuse(ctx, error)) : principal;
  };
}
