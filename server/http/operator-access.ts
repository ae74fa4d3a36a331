/**
 * Who may see the console (docs/console.md, "Who may see it"): an operator, and nobody else learns
 * that it exists (its routes answer 404, never 401 or 403, so a scan finds nothing to attack).
 *
 * - With OAuth access tokens: a token with the operator scope (`baton:operator`, configurable).
 * - With static tokens (BATON_TOKENS): a token whose principal is named an operator (BATON_OPERATORS).
 * - With no authentication at all: only a caller on loopback, and only where the server says so
 *   (`baton dev`, `loopback: true`).
 *
 * The same authentication hook as the MCP endpoint identifies the caller, so a token means the
 * same thing on both; a token that hook refuses is simply no operator here.
 */
import type { Context } from 'koa';
import { ANONYMOUS, type Principal } from '../protocol/index.js';
import { AuthenticationError, type Authenticate } from './authenticate.js';

export const DEFAULT_OPERATOR_SCOPE = 'baton:operator';

export interface OperatorAccessOptions {
  /** The server's authentication hook (the MCP endpoint's). */
  authenticate?: Authenticate | undefined;
  /** The OAuth scope that makes a token an operator's (`baton:operator`). */
  operatorScope?: string | undefined;
  /** Principal ids that are operators: a static token's is `token:<name>`. */
  operators?: readonly string[] | undefined;
  /** Without `authenticate`: a caller on loopback is an operator (`baton dev` only). */
  loopback?: boolean | undefined;
}

/** The operator in front of a request, or undefined (then the route answers 404). */
export type OperatorCheck = (ctx: Context) => Promise<Principal | undefined>;

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || v4.startsWith('127.');
}

export function operatorAccess(options: OperatorAccessOptions): OperatorCheck {
  const scope = options.operatorScope ?? DEFAULT_OPERATOR_SCOPE;
  const operators = new Set(options.operators ?? []);
  const authenticate = options.authenticate;
  if (!authenticate) {
    return async (ctx) => (options.loopback && isLoopbackAddress(ctx.req.socket.remoteAddress) ? ANONYMOUS : undefined);
  }
  return async (ctx) => {
    let principal: Principal;
    try {
      principal = await authenticate(ctx);
    } catch (error) {
      if (error instanceof AuthenticationError) return undefined;
      throw error;
    }
    if (!principal.authenticated) return undefined;
    if (principal.scopes?.includes(scope) || operators.has(principal.id)) return principal;
    return undefined;
  };
}

/** Whether any caller can ever be an operator under these options (else the console is a configuration mistake). */
export function operatorsPossible(options: OperatorAccessOptions): boolean {
  return options.authenticate !== undefined || options.loopback === true;
}
