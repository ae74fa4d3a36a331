/**
 * The console's forms carry a token a cross-site page cannot make: an HMAC, under a key derived
 * from the key ring, of the operator, the action and the task (and when it was made). Any
 * instance of a fleet checks what another issued (they share BATON_KEYS), a key rotation keeps
 * tokens already on screen working while the old key stays in the ring, and a token copied from
 * one task's page cancels no other task. This is beside the Origin and Sec-Fetch-Site checks of
 * the route (console-routes.ts), not instead of them.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { KeyRing } from '../engine/index.js';

/** How long a page's form stays usable (12 h: a shift). */
export const CSRF_LIFETIME_MS = 12 * 60 * 60 * 1000;

export class ConsoleCsrf {
  readonly #keyRing: KeyRing;
  readonly #clock: () => number;

  constructor(keyRing: KeyRing, clock: () => number = Date.now) {
    this.#keyRing = keyRing;
    this.#clock = clock;
  }

  /** `<kid>.<issued, base 36>.<mac>` for this operator, action and task. */
  token(principal: string, action: string, taskId: string): string {
    const key = this.#keyRing.current;
    const issued = Math.floor(this.#clock() / 1000).toString(36);
    return `${key.id}.${issued}.${this.#mac(key.secret, principal, action, taskId, issued)}`;
  }

  check(token: unknown, principal: string, action: string, taskId: string): boolean {
    if (typeof token !== 'string' || token.length > 200) return false;
    const [kid, issued, mac, extra] = token.split('.');
    if (extra !== undefined || !kid || !issued || !mac || !/^[0-9a-z]{1,10}$/.test(issued)) return false;
    const key = this.#keyRing.find(kid);
    if (!key) return false;
    const age = this.#clock() - parseInt(issued, 36) * 1000;
    if (age < -60_000 || age > CSRF_LIFETIME_MS) return false;
    const expected = Buffer.from(this.#mac(key.secret, principal, action, taskId, issued));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  #mac(secret: Uint8Array, principal: string, action: string, taskId: string, issued: string): string {
    // A key of its own for this use: the sealing key itself never signs anything a page shows.
    const key = createHmac('sha256', secret).update('baton console csrf v1').digest();
    return createHmac('sha256', key).update([principal, action, taskId, issued].join('\u0000')).digest('base64url');
  }
}
