/**
 * Redis set-ups on loopback, started and stopped by PID: one Redis, a Sentinel set, a
 * three-master cluster. Used by the tests of Baton on Redis and by the benchmarks alike.
 */
export { freePort } from '../targets/free-port.js';
export {
  DURABLE_REDIS,
  redisAvailable,
  startRedis,
  type RedisStartOptions,
  type RunningRedis,
} from './redis-server.js';
export {
  SENTINEL_NAME,
  startSentinelSet,
  type RedisProcess,
  type RunningSentinelSet,
  type SentinelSetOptions,
} from './redis-sentinel.js';
export { startCluster, type ClusterOptions, type RunningCluster } from './redis-cluster.js';
