/**
 * Turns the environment's security settings into server options: the single-use guard (Redis
 * when BATON_REDIS_URL is set), static bearer tokens with their protected-resource metadata,
 * and every limit. Shared by each command that builds a server.
 */
import type { EnvironmentConfig } from './config.js';
import type { BatonOptions } from './create-server.js';
import { RedisReplayGuard } from './engine/index.js';
import { staticBearerTokens } from './http/index.js';

export function securityOptions(config: EnvironmentConfig): Partial<BatonOptions> {
  return {
    ...config.limits,
    legacy: config.legacy,
    ...(config.redisUrl ? { replayGuard: new RedisReplayGuard({ url: config.redisUrl }) } : {}),
    ...(config.tokens
      ? {
          authenticate: staticBearerTokens(config.tokens),
          protectedResource: {
            resource: `${config.publicUrl}/mcp`,
            authorizationServers: config.authorizationServers,
          },
        }
      : {}),
  };
}
