/**
 * One issuer's signing keys, fetched within a budget that holds in every outcome. An attempt is
 * discovery (once the `jwks_uri` is known, skipped) plus one JWKS fetch, all within
 * bounded-fetch.ts's bounds. Attempts are single-flight (tokens arriving meanwhile wait for it) and
 * spaced: after a good attempt the next may start a cooldown later (30 s); after the n-th failure
 * in a row (HTTP error, invalid JSON, a document that is no key set, an oversized body, a timeout)
 * the wait is the cooldown doubled n-1 times, capped (2 min). Nothing a token carries (an invented
 * `kid`, a cold issuer) can start an attempt sooner, so a failing issuer sees at most one request
 * per cooldown, then fewer, from each instance.
 *
 * Keys are used for `cacheMaxAgeMs` (10 min), then refreshed; while the refresh fails, the last
 * keys the issuer published keep verifying for up to `staleMaxAgeMs` (1 h) after they were fetched,
 * so an issuer's short outage does not lock every caller out, yet a key the issuer withdrew is not
 * trusted forever.
 */
import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import type { Logger } from '../engine/index.js';
import { AccessTokenRejected } from './access-token-rejected.js';
import { fetchBoundedJson } from './bounded-fetch.js';
import { discoverIssuer } from './issuer-metadata.js';

export interface KeyFetchPolicy {
  /** Least time between two attempts, and the first wait after a failure. */
  cooldownMs: number;
  /** The longest wait between two failed attempts (at least the cooldown). */
  backoffMaxMs: number;
  /** How long fetched keys are used before they are fetched again. */
  cacheMaxAgeMs: number;
  /** How old the last good keys may get while every refresh fails (at least cacheMaxAgeMs). */
  staleMaxAgeMs: number;
  /** Timeout of one request (metadata or JWKS), body included. */
  timeoutMs: number;
  metadataMaxBytes: number;
  jwksMaxBytes: number;
}

export class IssuerKeys {
  readonly #policy: KeyFetchPolicy;
  readonly #clock: () => number;
  readonly #logger: Logger | undefined;
  #jwksUri: string | undefined;
  #keys: { select: JWTVerifyGetKey; fetchedAt: number } | undefined;
  #pending: Promise<void> | undefined;
  #nextAttemptAt = Number.NEGATIVE_INFINITY;
  #failures = 0;

  constructor(
    readonly issuer: string,
    policy: KeyFetchPolicy,
    clock: () => number,
    logger?: Logger,
  ) {
    this.#policy = policy;
    this.#clock = clock;
    this.#logger = logger;
  }

  /** The keys to verify with now; throws `issuer_unavailable` when there are none usable. */
  async current(): Promise<JWTVerifyGetKey> {
    const keys = this.#keys;
    if (keys && this.#clock() - keys.fetchedAt < this.#policy.cacheMaxAgeMs) return keys.select;
    await this.#attempt();
    const latest = this.#keys;
    const staleMax = Math.max(this.#policy.staleMaxAgeMs, this.#policy.cacheMaxAgeMs);
    if (latest && this.#clock() - latest.fetchedAt < staleMax) return latest.select;
    throw new AccessTokenRejected('issuer_unavailable');
  }

  /**
   * After `used` held no key for a token's `kid` (the issuer may have rotated): keys newer than
   * `used`, fetched since by another request or now if the budget allows; undefined otherwise.
   */
  async newerThan(used: JWTVerifyGetKey): Promise<JWTVerifyGetKey | undefined> {
    if (this.#keys && this.#keys.select !== used) return this.#keys.select;
    await this.#attempt();
    return this.#keys && this.#keys.select !== used ? this.#keys.select : undefined;
  }

  /** The last attempt failed: a `kid` the keys lack may be one the issuer published meanwhile. */
  get failing(): boolean {
    return this.#failures > 0;
  }

  /** Starts an attempt when the budget allows, or joins the one under way; never throws. */
  #attempt(): Promise<void> {
    if (this.#pending) return this.#pending;
    const startedAt = this.#clock();
    if (startedAt < this.#nextAttemptAt) return Promise.resolve();
    this.#pending = this.#fetchKeys()
      .then(
        (select) => {
          this.#keys = { select, fetchedAt: this.#clock() };
          this.#failures = 0;
          this.#nextAttemptAt = startedAt + this.#policy.cooldownMs;
        },
        (error: unknown) => {
          this.#failures += 1;
          // The metadata may have moved the keys: the next attempt discovers again.
          this.#jwksUri = undefined;
          const waitMs = backoffMs(this.#failures, this.#policy);
          this.#nextAttemptAt = startedAt + waitMs;
          // One line per failed attempt: bounded by the backoff, whatever the traffic.
          this.#logger?.warn('issuer_unavailable', {
            issuer: this.issuer,
            error: String((error as Error)?.message ?? error),
            failures: this.#failures,
            retryInSeconds: Math.ceil(waitMs / 1000),
          });
        },
      )
      .finally(() => {
        this.#pending = undefined;
      });
    return this.#pending;
  }

  async #fetchKeys(): Promise<JWTVerifyGetKey> {
    const { timeoutMs, metadataMaxBytes, jwksMaxBytes } = this.#policy;
    this.#jwksUri ??= (await discoverIssuer(this.issuer, { timeoutMs, maxBytes: metadataMaxBytes })).jwksUri;
    const document = await fetchBoundedJson(this.#jwksUri, { timeoutMs, maxBytes: jwksMaxBytes });
    // Throws JWKSInvalid for a document that is not a key set: a failed attempt like any other.
    return createLocalJWKSet(document as JSONWebKeySet);
  }
}

/** The wait after the n-th failure in a row: the cooldown doubled n-1 times, capped. */
export function backoffMs(failures: number, policy: Pick<KeyFetchPolicy, 'cooldownMs' | 'backoffMaxMs'>): number {
  const cap = Math.max(policy.backoffMaxMs, policy.cooldownMs);
  return Math.min(policy.cooldownMs * 2 ** Math.min(failures - 1, 30), cap);
}
