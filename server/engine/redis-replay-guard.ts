/**
 * The single-use guard for a fleet: one Redis shared by every instance. `SET NX EX` makes the
 * claim atomic across instances; the outcome replaces the claim with `SET XX KEEPTTL`. When Redis
 * cannot be reached the guard throws, and single-use flows fail closed (nothing runs).
 */
import { Redis } from 'ioredis';
import { pendingValue, readClaim, type GuardClaim, type ReplayGuard } from './replay-guard.js';

export interface RedisReplayGuardOptions {
  url: string;
  /** Key prefix, so several deployments can share one Redis. */
  prefix?: string;
  /** How long one Redis command may take before the guard counts Redis as down. */
  commandTimeoutMs?: number;
}

export class RedisReplayGuard implements ReplayGuard {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #timeoutMs: number;

  constructor(options: RedisReplayGuardOptions) {
    this.#prefix = options.prefix ?? 'baton:state:';
    this.#timeoutMs = options.commandTimeoutMs ?? 2000;
    this.#redis = new Redis(options.url, {
      lazyConnect: false,
      // Fail fast instead of queueing: a single-use call must not wait for Redis to come back.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: this.#timeoutMs,
    });
    // Connection errors surface on each command; without a listener ioredis logs every retry.
    this.#redis.on('error', () => {});
  }

  /** Commands fail at once while disconnected (no offline queue), so wait briefly for a connection. */
  async #connected(): Promise<void> {
    if (this.#redis.status === 'ready') return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#redis.off('ready', onReady);
        reject(new Error(`Redis not ready within ${this.#timeoutMs} ms`));
      }, this.#timeoutMs);
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      this.#redis.once('ready', onReady);
    });
  }

  async claim(id: string, ttlSeconds: number, runDeadline: number): Promise<GuardClaim> {
    await this.#connected();
    const key = this.#prefix + id;
    const set = await this.#redis.set(key, pendingValue(runDeadline), 'EX', Math.max(1, ttlSeconds), 'NX');
    if (set === 'OK') return { status: 'claimed' };
    const value = await this.#redis.get(key);
    if (value === null) return this.claim(id, ttlSeconds, runDeadline); // expired between the two commands
    // Instances' clocks are compared here: keep them in sync (NTP), as for state expiry.
    return readClaim(value, Date.now());
  }

  async settle(id: string, outcome: string): Promise<void> {
    await this.#connected();
    await this.#redis.set(this.#prefix + id, outcome, 'KEEPTTL', 'XX');
  }

  async release(id: string): Promise<void> {
    await this.#connected();
    await this.#redis.del(this.#prefix + id);
  }

  async close(): Promise<void> {
    this.#redis.disconnect();
  }
}
