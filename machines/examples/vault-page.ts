/**
 * The page the connect-payments example sends users to: a form that puts the key in the vault.
 * It is part of the example, not of Baton; a real deployment links to its own secure page.
 *
 * The URL carries the page reference Baton sealed for the flow (`/vault/<pageRef>`). Before it
 * stores anything, the page identifies the person submitting the form and checks with
 * `verifyPageVisit` that they started the flow: a link forwarded to someone else (the spec's
 * phishing attack, client/elicitation "Phishing") is refused, and nothing is stored; so is a link
 * whose flow has already found its key (the vault says so). A real page
 * identifies its user with its login session; this example reuses the server's `authenticate`
 * hook, with the bearer token in the form's `access_token` field (RFC 6750, section 2.2) when the
 * server has one: the very hook the endpoint uses, so under OAuth the flow's `iss|sub` is who the
 * page accepts (server/cli/examples-vault-page.ts).
 *
 * The form is a few hundred bytes: a client that sends its headers and then stalls is cut off
 * after `bodyTimeoutMs`, not left to the server's 30 s request timeout, and answered as the
 * client's fault (a 408, logged as a warning by the app), never as a server error.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { verifyPageVisit, type KeyRing } from '../../server/engine/index.js';
import { BodyAbortedError, BodyTimeoutError, BodyTooLargeError, readBody } from '../../server/http/index.js';
import type { SecretVault } from './secret-vault.js';

/** Time a visitor's browser has to send the form once its headers arrived. */
export const VAULT_PAGE_BODY_TIMEOUT_MS = 5_000;
/** The form's largest body: a key and an access token, with room to spare. */
const MAX_FORM_BYTES = 4096;

export interface VaultPageOptions {
  /** The server's key ring: the page references were sealed with it. */
  keyRing: KeyRing;
  /**
   * Who is submitting the form, as a principal id, or undefined when they cannot be identified.
   * The server's own login: a session cookie, or here the `authenticate` hook.
   */
  identify: (ctx: Context) => Promise<string | undefined>;
  /** Whether `identify` needs the user's access token in the form (a server with bearer tokens). */
  asksForToken?: boolean;
  prefix?: string;
  clock?: () => number;
  /** Time the form's body has to arrive once the headers did (VAULT_PAGE_BODY_TIMEOUT_MS). */
  bodyTimeoutMs?: number;
}

function page(body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Connect your account</title></head><body>${body}</body></html>`;
}

function refuse(ctx: Context, status: number, text: string) {
  ctx.status = status;
  ctx.type = 'html';
  ctx.body = page(`<h1>${text}</h1>`);
}

export function vaultPageRouter(vault: SecretVault, options: VaultPageOptions): Router {
  const router = new Router({ prefix: options.prefix ?? '/vault' });
  const tokenField = options.asksForToken
    ? '<label>Your access token for this server <input name="access_token" type="password" autocomplete="off" required></label>'
    : '';
  router.get('/:ref', (ctx) => {
    const visit = verifyPageVisit(ctx.params.ref, { keyRing: options.keyRing, clock: options.clock });
    if (!visit.ok) return refuse(ctx, 404, 'This link is not valid or has expired. Start again from your assistant.');
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = page(
      `<h1>Enter your secret key</h1><form method="post">${tokenField}<label>Secret key <input name="secret" type="password" autocomplete="off" required minlength="8"></label><button>Store in vault</button></form>`,
    );
  });
  router.post('/:ref', async (ctx) => {
    let raw: string;
    try {
      raw = await readBody(ctx.req, MAX_FORM_BYTES, options.bodyTimeoutMs ?? VAULT_PAGE_BODY_TIMEOUT_MS);
    } catch (error) {
      // The client's doing, each of them: 4xx, which the app logs as a warning (http-app.ts).
      if (error instanceof BodyTooLargeError) ctx.throw(413);
      // The socket is already closed (readBody destroyed it): the 408 is for the log alone.
      if (error instanceof BodyTimeoutError) ctx.throw(408);
      if (error instanceof BodyAbortedError) return;
      throw error;
    }
    const form = new URLSearchParams(raw);
    const token = form.get('access_token');
    if (token && !ctx.get('authorization')) ctx.request.headers.authorization = `Bearer ${token}`;
    const visitor = await options.identify(ctx);
    if (visitor === undefined)
      return refuse(ctx, 401, 'Sign in first: this page only accepts the user who started the request.');
    const visit = verifyPageVisit(ctx.params.ref, { keyRing: options.keyRing, visitor, clock: options.clock });
    if (!visit.ok) {
      return visit.reason === 'other_principal'
        ? refuse(ctx, 403, 'This link was made for another user. Nothing was stored.')
        : refuse(ctx, 404, 'This link is not valid or has expired. Start again from your assistant.');
    }
    const secret = form.get('secret') ?? '';
    if (secret.length < 8) ctx.throw(400, 'The key is too short.');
    if (!(await vault.store(visit.subject, secret))) {
      return refuse(ctx, 410, 'This link was already used: its request has moved on. Nothing was stored.');
    }
    ctx.type = 'html';
    ctx.body = page('<h1>Stored.</h1><p>You can go back to your assistant and continue.</p>');
  });
  return router;
}
