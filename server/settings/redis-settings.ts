/**
 * Which Redis a fleet shares (docs/configuration.md, docs/deploy.md "High availability"), from
 * the environment: one of
 *
 * - `BATON_REDIS_URL` (`redis://host:6379`, `rediss://` for TLS): one Redis;
 * - `BATON_REDIS_SENTINELS` (`host:port,…`) with `BATON_REDIS_SENTINEL_NAME` (the master's name):
 *   a Sentinel set, followed through failovers;
 * - `BATON_REDIS_CLUSTER` (`host:port,…`, seed nodes): a Redis Cluster;
 *
 * with `BATON_REDIS_USERNAME`, `BATON_REDIS_PASSWORD`, `BATON_REDIS_SENTINEL_PASSWORD` and
 * `BATON_REDIS_TLS=1` for the last two (a URL carries its own). A setting that is wrong, or two
 * that disagree, stop the start naming the setting.
 */
import { ConfigurationError, type RedisNode, type RedisTarget } from '../engine/index.js';

type Env = Record<string, string | undefined>;

function nodes(name: string, value: string): RedisNode[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const match = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(item);
      const port = Number(match?.[2]);
      if (!match || port < 1 || port > 65535) {
        throw new ConfigurationError(`${name} takes host:port pairs, comma-separated, got "${item}".`);
      }
      return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
    });
}

export function redisFromEnvironment(env: Env): RedisTarget | undefined {
  const given = ['BATON_REDIS_URL', 'BATON_REDIS_SENTINELS', 'BATON_REDIS_CLUSTER'].filter((name) => env[name]);
  if (given.length > 1) {
    throw new ConfigurationError(`Set one of ${given.join(' and ')}: they name different Redis set-ups.`);
  }
  const access = {
    ...(env.BATON_REDIS_USERNAME ? { username: env.BATON_REDIS_USERNAME } : {}),
    ...(env.BATON_REDIS_PASSWORD ? { password: env.BATON_REDIS_PASSWORD } : {}),
    ...(env.BATON_REDIS_TLS === '1' ? { tls: true } : {}),
  };
  if (env.BATON_REDIS_TLS !== undefined && env.BATON_REDIS_TLS !== '' && !['0', '1'].includes(env.BATON_REDIS_TLS)) {
    throw new ConfigurationError(`BATON_REDIS_TLS must be 1 or 0, got "${env.BATON_REDIS_TLS}".`);
  }
  if (env.BATON_REDIS_URL) {
    if (!/^rediss?:\/\//.test(env.BATON_REDIS_URL)) {
      throw new ConfigurationError('BATON_REDIS_URL must look like redis://host:6379 (or rediss:// for TLS).');
    }
    if (Object.keys(access).length > 0) {
      throw new ConfigurationError(
        'BATON_REDIS_URL carries its own user, password and TLS (rediss://user:password@host:6379): leave BATON_REDIS_USERNAME, BATON_REDIS_PASSWORD and BATON_REDIS_TLS unset.',
      );
    }
    return env.BATON_REDIS_URL;
  }
  if (env.BATON_REDIS_SENTINELS) {
    const name = env.BATON_REDIS_SENTINEL_NAME;
    if (!name) {
      throw new ConfigurationError(
        'BATON_REDIS_SENTINELS needs BATON_REDIS_SENTINEL_NAME: the name the sentinels monitor the master by.',
      );
    }
    return {
      sentinels: nodes('BATON_REDIS_SENTINELS', env.BATON_REDIS_SENTINELS),
      name,
      ...access,
      ...(env.BATON_REDIS_SENTINEL_PASSWORD ? { sentinelPassword: env.BATON_REDIS_SENTINEL_PASSWORD } : {}),
    };
  }
  if (env.BATON_REDIS_SENTINEL_NAME) {
    throw new ConfigurationError('BATON_REDIS_SENTINEL_NAME is set without BATON_REDIS_SENTINELS.');
  }
  if (env.BATON_REDIS_CLUSTER) return { cluster: nodes('BATON_REDIS_CLUSTER', env.BATON_REDIS_CLUSTER), ...access };
  if (Object.keys(access).length > 0) {
    throw new ConfigurationError(
      'BATON_REDIS_USERNAME, BATON_REDIS_PASSWORD and BATON_REDIS_TLS go with BATON_REDIS_SENTINELS or BATON_REDIS_CLUSTER.',
    );
  }
  return undefined;
}
