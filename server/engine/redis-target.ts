/**
 * Where a fleet's Redis is (docs/deploy.md, "High availability"), and the one place connections
 * to it are made: the single-use guard, the task store (and its subscriber), the BullMQ queue and
 * the memory watch all connect through `connectRedis`, so each speaks a single Redis, a Sentinel
 * set or a Redis Cluster alike.
 *
 * - a URL (`redis://…`, `rediss://…`): one Redis;
 * - `{ sentinels, name }`: the master Sentinel names; ioredis asks the sentinels for it and, after
 *   a failover, reconnects to the promoted replica by itself;
 * - `{ cluster }`: seed nodes of a Redis Cluster. Every multi-key operation Baton runs (its Lua
 *   scripts, BullMQ's) touches keys of one hash slot: in a cluster the key prefixes carry a hash
 *   tag (`clusterPrefix`), so tasks, single-use states and the queue each live in one slot.
 */
import { Cluster, Redis, type RedisOptions } from 'ioredis';

export interface RedisNode {
  host: string;
  port: number;
}

/** What every mode may add: credentials and TLS for the data nodes. */
interface RedisAccess {
  username?: string;
  password?: string;
  /** Connect with TLS (rediss:// says so for a URL). */
  tls?: boolean;
}

export type RedisTarget =
  | string
  | ({ sentinels: RedisNode[]; name: string; sentinelPassword?: string } & RedisAccess)
  | ({ cluster: RedisNode[] } & RedisAccess);

export type RedisConnection = Redis | Cluster;

export function isCluster(target: RedisTarget): target is Extract<RedisTarget, { cluster: RedisNode[] }> {
  return typeof target === 'object' && 'cluster' in target;
}

/** How logs and errors name a target, without its credentials. */
export function describeRedisTarget(target: RedisTarget): string {
  if (typeof target === 'string') {
    try {
      const url = new URL(target);
      return `${url.protocol}//${url.host}`;
    } catch {
      return 'redis';
    }
  }
  if ('cluster' in target) return `cluster ${target.cluster.map(({ host, port }) => `${host}:${port}`).join(',')}`;
  return `sentinel master "${target.name}" via ${target.sentinels.map(({ host, port }) => `${host}:${port}`).join(',')}`;
}

/**
 * A connection to `target` with the caller's command behaviour (`options`: retries, timeouts,
 * offline queue). A cluster connection applies them to each node, and routes by key.
 */
export function connectRedis(target: RedisTarget, options: RedisOptions = {}): RedisConnection {
  if (typeof target === 'string') return new Redis(target, options);
  const access: RedisOptions = {
    ...(target.username ? { username: target.username } : {}),
    ...(target.password ? { password: target.password } : {}),
    ...(target.tls ? { tls: {} } : {}),
  };
  if ('cluster' in target) {
    const { enableOfflineQueue, ...nodeOptions } = options;
    return new Cluster(target.cluster, {
      redisOptions: { ...nodeOptions, ...access },
      ...(enableOfflineQueue === undefined ? {} : { enableOfflineQueue }),
      // A failover or a resharding moves slots: follow MOVED/ASK, and retry while a slot has no master.
      retryDelayOnFailover: 200,
      retryDelayOnClusterDown: 200,
      retryDelayOnTryAgain: 200,
      slotsRefreshTimeout: 2000,
    });
  }
  return new Redis({
    ...options,
    ...access,
    sentinels: target.sentinels,
    name: target.name,
    ...(target.sentinelPassword ? { sentinelPassword: target.sentinelPassword } : {}),
    ...(target.tls ? { enableTLSForSentinelMode: true } : {}),
    // After a failover, a command on the old master gets READONLY: reconnect to the new one.
    reconnectOnError: (error) => error.message.startsWith('READONLY'),
  });
}

/**
 * BullMQ's key prefix in a cluster: every key of a queue in one slot, as its scripts need. The tag
 * is chosen for its slot (266): in the even split `redis-cli --cluster create` makes of three
 * masters, the queue then lands on the first, task records (`{task}`, slot 9240) on the second
 * and single-use claims (`{state}`, slot 12053) on the third, so each concern has a master of its
 * own. `{baton}` (slot 8333) put the queue on the task records' master (bench:ha measured it).
 */
export const CLUSTER_QUEUE_PREFIX = '{baton-queue}';

/**
 * `prefix` as a cluster needs it: Baton's scripts touch several keys at once, so all of one
 * concern's keys share a hash tag (`baton:task:` -> `baton:{task}:`). Outside a cluster the
 * prefix is kept as it is: keys already in a Redis stay where they are.
 */
export function clusterPrefix(target: RedisTarget, prefix: string): string {
  if (!isCluster(target) || /\{[^}]+\}/.test(prefix)) return prefix;
  const parts = prefix.split(':').filter(Boolean);
  if (parts.length < 2) return `{${parts[0] ?? 'baton'}}:`;
  return `${parts.slice(0, -1).join(':')}:{${parts.at(-1)}}:`;
}

/** Where a Redis-backed part connects: `redis` (any target), or `url` (one Redis), as its options say. */
export function targetOf(options: { url?: string | undefined; redis?: RedisTarget | undefined }): RedisTarget {
  const target = options.redis ?? options.url;
  if (target === undefined) throw new TypeError('Give the Redis to connect to: url or redis.');
  return target;
}

/** What Redis says while it is away or changing hands: a failover, a restart, a moved slot. */
const UNAVAILABLE =
  /Connection is closed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|READONLY|LOADING|CLUSTERDOWN|TRYAGAIN|MASTERDOWN|Command timed out|not ready within|Stream isn't writeable|All sentinels are unreachable|Failed to refresh slots cache/;

/**
 * Whether `error` says Redis is unavailable for now, rather than that something is wrong with
 * what was asked: work that failed for it is retried (a task's step, by its job), not failed.
 */
export function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'MaxRetriesPerRequestError' || error.name === 'ClusterAllFailedError') return true;
  return UNAVAILABLE.test(error.message);
}
