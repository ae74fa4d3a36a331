/**
 * The single-use guard for a fleet: one Redis shared by every instance. `SET NX EX` makes the
 * claim atomic across instances; the outcome replaces the claim with `SET XX KEEPTTL`. When Redis
 * cannot be reached the guard throws, and single-use flows fail closed (nothing runs).
 */
import { Redis } from 'ioredis';
import { GUARD_PENDING, type GuardClaim, type ReplayGuard } from './replay-guard.js';

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

  constructor(options: RedisReplayGuardOptions) {
    this.#prefix = options.prefix ?? 'baton:state:';
    this.#redis = new Redis(options.url, {
      lazyConnect: false,
      // Fail fast instead of queueing: a single-use call must not wait for Redis to come back.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: options.commandTimeoutMs ?? 2000,
    });
    // Connection errors surface on each command; without a listener ioredis logs every retry.
    this.#redis.on('error', () => {});
  }

  async claim(id: string, ttlSeconds: number): Promise<GuardClaim> {
    const key = this.#prefix + id;
    const set = await this.#redis.set(key, GUARD_PENDING, 'EX', Math.max(1, ttlSeconds), 'NX');
    if (set === 'OK') return { status: 'claimed' };
    const value = await this.#redis.get(key);
    if (value === null) return this.claim(id, ttlSeconds); // expired between the two commands
    return value === GUARD_PENDING ? { status: 'in_progress' } : { status: 'settled', outcome: value };
  }

  async settle(id: string, outcome: string): Promise<void> {
    await this.#redis.set(this.#prefix + id, outcome, 'KEEPTTL', 'XX');
  }

  async release(id: string): Promise<void> {
    await this.#redis.del(this.#prefix + id);
  }

  async close(): Promise<void> {
    this.#redis.disconnect();
  }
}
