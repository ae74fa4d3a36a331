/**
 * The single-use guard for a fleet: one Redis shared by every instance. One Lua script makes the
 * claim atomic across instances (epoch check, quota, `SET NX EX`); the outcome replaces the claim
 * with `SET XX KEEPTTL`. When Redis cannot be reached the guard throws, and single-use flows fail
 * closed (nothing runs).
 *
 * Exactly once holds only while Redis keeps its keys. The guard keeps an epoch marker: when Redis
 * has lost it (restarted without persistence, flushed, evicted), the next claim writes a new epoch
 * and every state issued before it counts as used. Losing some keys but not the marker (a restore
 * from an older snapshot, eviction) cannot be detected, hence the start-up check of
 * `maxmemory-policy` and persistence (docs/security.md, "Redis").
 */
import {
  clusterPrefix,
  connectRedis,
  isCluster,
  targetOf,
  type RedisConnection,
  type RedisTarget,
} from '../redis-target.js';
import { ConfigurationError } from '../configuration-error.js';
import { pendingValue, readClaim, type ClaimScope, type GuardClaim, type ReplayGuard } from './replay-guard.js';

/** Where the guard's Redis is and how it names its keys. */
export interface RedisReplayGuardOptions {
  /** One Redis (`redis://…`); or give `redis`. */
  url?: string;
  /** One Redis, a Sentinel set or a Redis Cluster (redis-target.ts). */
  redis?: RedisTarget;
  /** Key prefix, so several deployments can share one Redis. */
  prefix?: string;
  /** How long one Redis command may take before the guard counts Redis as down. */
  commandTimeoutMs?: number;
  /** Milliseconds since the epoch (the claim deadlines and the epoch marker use it). */
  clock?: () => number;
  /**
   * Replicas that must hold a claim before its round runs (Redis `WAIT`): a failover promotes a
   * replica, and a claim the old master acknowledged but had not yet replicated would be lost with
   * it, letting the state run again. Default: 1 on a Sentinel set, 0 otherwise. A claim fewer
   * replicas confirm within `replicaWaitMs` (500) is given back and the round refused (fail closed).
   * Not for a Redis Cluster, where `WAIT` would reach a node other than the claim's.
   */
  replicas?: number;
  replicaWaitMs?: number;
}

/** What the start-up check found: `problems` stop the server, `warnings` are logged. */
export interface RedisGuardReport {
  problems: string[];
  warnings: string[];
}

// KEYS: state, owner's claims (sorted by expiry), epoch. ARGV: pending value, ttl (s), now (ms),
// quota (0: none), id, issuedAt (s; -1: not checked).
const CLAIM_SCRIPT = `
local now = tonumber(ARGV[3])
local epoch = redis.call('GET', KEYS[3])
if not epoch then
  epoch = ARGV[3]
  redis.call('SET', KEYS[3], epoch)
end
local issuedAt = tonumber(ARGV[6])
if issuedAt >= 0 and issuedAt * 1000 < tonumber(epoch) then return {'before_epoch'} end
local existing = redis.call('GET', KEYS[1])
if existing then return {'exists', existing} end
local ttl = tonumber(ARGV[2])
local quota = tonumber(ARGV[4])
if quota > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  if redis.call('ZCARD', KEYS[2]) >= quota then return {'over_quota'} end
  redis.call('ZADD', KEYS[2], now + ttl * 1000, ARGV[5])
  if redis.call('PTTL', KEYS[2]) < ttl * 1000 then redis.call('PEXPIRE', KEYS[2], ttl * 1000) end
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ttl)
return {'claimed'}
`;

type ClaimingRedis = RedisConnection & { batonClaim(...args: Array<string | number>): Promise<[string, string?]> };

/** The single-use guard for several instances, shared through one Redis (see the module comment for its limits). */
export class RedisReplayGuard implements ReplayGuard {
  readonly #redis: ClaimingRedis;
  readonly #prefix: string;
  readonly #timeoutMs: number;
  readonly #clock: () => number;
  readonly #epochStarted: Promise<void>;
  readonly #replicas: number;
  readonly #replicaWaitMs: number;

  constructor(options: RedisReplayGuardOptions) {
    const target = targetOf(options);
    this.#prefix = clusterPrefix(target, options.prefix ?? 'baton:state:');
    this.#replicas = options.replicas ?? (typeof target === 'object' && 'sentinels' in target ? 1 : 0);
    if (this.#replicas > 0 && isCluster(target)) {
      throw new ConfigurationError(
        'Waiting for replicas (BATON_REDIS_WAIT_REPLICAS) is not supported on a Redis Cluster: leave it 0 there.',
      );
    }
    this.#replicaWaitMs = options.replicaWaitMs ?? 500;
    this.#timeoutMs = options.commandTimeoutMs ?? 2000;
    this.#clock = options.clock ?? Date.now;
    const redis = connectRedis(target, {
      lazyConnect: false,
      // Fail fast instead of queueing: a single-use call must not wait for Redis to come back.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: this.#timeoutMs,
    });
    redis.defineCommand('batonClaim', { numberOfKeys: 3, lua: CLAIM_SCRIPT });
    this.#redis = redis as ClaimingRedis;
    // Connection errors surface on each command; without a listener ioredis logs every retry.
    this.#redis.on('error', () => {});
    this.#epochStarted = this.#startEpoch();
  }

  get #epochKey(): string {
    return `${this.#prefix}epoch`;
  }

  /**
   * A guard starting on a Redis without a marker cannot tell a new Redis from one that lost its
   * keys; it starts the epoch at the current second, so states this fleet issues from now on run.
   * A marker lost later is replaced by the claim script at the exact millisecond (fail closed).
   */
  async #startEpoch(): Promise<void> {
    try {
      await this.#connected();
      await this.#redis.set(this.#epochKey, String(Math.floor(this.#clock() / 1000) * 1000), 'NX');
    } catch {
      // Redis is down at start-up: the first claim writes the marker.
    }
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

  async claim(id: string, ttlSeconds: number, runDeadline: number, scope?: ClaimScope): Promise<GuardClaim> {
    await this.#epochStarted;
    await this.#connected();
    const now = this.#clock();
    const [status, value] = await this.#redis.batonClaim(
      this.#prefix + id,
      `${this.#prefix}owner:${scope?.owner ?? ''}`,
      this.#epochKey,
      pendingValue(runDeadline),
      Math.max(1, ttlSeconds),
      now,
      scope?.quota ?? 0,
      id,
      scope?.issuedAt ?? -1,
    );
    switch (status) {
      case 'claimed':
        await this.#replicated(id);
        return { status: 'claimed' };
      case 'before_epoch':
        return { status: 'before_epoch' };
      case 'over_quota':
        return { status: 'over_quota', quota: scope!.quota };
      default:
        // Instances' clocks are compared here: keep them in sync (NTP), as for state expiry.
        return readClaim(value ?? '', now);
    }
  }

  /** Waits until the claim of `id` is on enough replicas; else gives it back and throws (fail closed). */
  async #replicated(id: string): Promise<void> {
    if (this.#replicas === 0) return;
    const acknowledged = Number(await this.#redis.call('WAIT', this.#replicas, this.#replicaWaitMs));
    if (acknowledged >= this.#replicas) return;
    await this.#redis.del(this.#prefix + id).catch(() => {});
    throw new Error(
      `a single-use claim reached ${acknowledged} of ${this.#replicas} replicas in ${this.#replicaWaitMs} ms`,
    );
  }

  async peek(id: string): Promise<boolean> {
    await this.#connected();
    return (await this.#redis.exists(this.#prefix + id)) === 1;
  }

  async settle(id: string, outcome: string): Promise<void> {
    await this.#connected();
    await this.#redis.set(this.#prefix + id, outcome, 'KEEPTTL', 'XX');
    // Best effort: an outcome lost in a failover leaves the claim pending, so the state counts as
    // used after its deadline (fail closed); on a replica, a replay gets the outcome instead.
    if (this.#replicas > 0) await this.#redis.call('WAIT', this.#replicas, this.#replicaWaitMs).catch(() => {});
  }

  /** Gives the claim back. It still counts against its owner's quota until the state expires. */
  async release(id: string): Promise<void> {
    await this.#connected();
    await this.#redis.del(this.#prefix + id);
  }

  /**
   * Reads the Redis settings exactly once depends on. `maxmemory-policy` must be `noeviction`
   * (any other policy may drop claims, which all carry a TTL, while keeping the marker); without
   * `appendonly yes` a restart loses every claim (detected, but every state in flight is refused),
   * and `appendfsync always` is what keeps the last second of claims through a crash.
   */
  async check(): Promise<RedisGuardReport> {
    const report: RedisGuardReport = { problems: [], warnings: [] };
    await this.#connected();
    let settings: Record<string, string>;
    try {
      const pairs = (await this.#redis.call('CONFIG', 'GET', 'maxmemory-policy')) as string[];
      const more = (await this.#redis.call('CONFIG', 'GET', 'append*')) as string[];
      settings = Object.fromEntries(
        [...pairs, ...more].flatMap((v, i, all) => (i % 2 === 0 ? [[v, all[i + 1] ?? '']] : [])),
      );
    } catch {
      report.warnings.push(
        'Could not read the Redis configuration (CONFIG GET is not allowed). Make sure maxmemory-policy is noeviction and appendonly is yes, with appendfsync always: otherwise a used single-use state may run again after Redis evicts or loses keys.',
      );
      return report;
    }
    const policy = settings['maxmemory-policy'];
    if (policy !== undefined && policy !== 'noeviction') {
      report.problems.push(
        `Redis maxmemory-policy is "${policy}": Redis may evict single-use claims and a used state would run again. Set maxmemory-policy noeviction (CONFIG SET maxmemory-policy noeviction, and in redis.conf).`,
      );
    }
    if (settings.appendonly !== 'yes') {
      report.warnings.push(
        'Redis runs without appendonly: a Redis restart loses every single-use claim. Baton then refuses every single-use state issued before it (users start again). Set appendonly yes and appendfsync always.',
      );
    } else if (settings.appendfsync !== 'always') {
      report.warnings.push(
        `Redis appendfsync is "${settings.appendfsync}": a Redis crash can lose the last second of single-use claims, and those states could run again. Set appendfsync always for exactly once.`,
      );
    }
    return report;
  }

  async close(): Promise<void> {
    this.#redis.disconnect();
  }
}
