/**
 * The authentication seam: turns a Koa request into a principal, or refuses it. Without a hook,
 * every caller is the anonymous principal (fine on loopback; put real auth in front of a fleet).
 */
import type { Context } from 'koa';
import type { Principal } from '../protocol/index.js';

export type Authenticate = (ctx: Context) => Promise<Principal>;

/** Thrown by an Authenticate hook to answer 401 with a WWW-Authenticate challenge. */
export class AuthenticationError extends Error {
  constructor(
    message: string,
    readonly challenge = 'Bearer',
  ) {
    super(message);
  }
}
