/**
 * Turns the environment's security settings into server options: the single-use guard (Redis
 * when BATON_REDIS_URL is set), OAuth access tokens or static bearer tokens with their
 * protected-resource metadata,
 * the Host and Origin allow-lists, every limit, and the XState path. Shared by each command that
 * builds a server.
 */
import type { EnvironmentConfig } from './environment-config.js';
import type { BatonOptions } from '../create-server.js';
import { ConfigurationError, definedFields, RedisReplayGuard, stderrLogger, type Logger } from '../engine/index.js';
import {
  isLoopbackHost,
  LOOPBACK_HOSTS,
  oauthResourceServer,
  staticBearerTokens,
  type OriginPolicy,
} from '../http/index.js';

export function securityOptions(config: EnvironmentConfig): Partial<BatonOptions> {
  return {
    ...config.limits,
    ...definedFields({ xstatePath: config.xstatePath }),
    ...definedFields({ maxConcurrentRequestsPerClient: config.perCallerLimits.maxConcurrentRequestsPerClient }),
    longLived: config.perCallerLimits.longLived,
    listen: config.perCallerLimits.listen,
    legacy: config.legacy === false ? false : { ...config.legacy, ...config.perCallerLimits.legacy },
    connectionLimits: config.connectionLimits,
    originPolicy: originPolicyOf(config),
    ...(config.redis
      ? {
          replayGuard: new RedisReplayGuard({
            redis: config.redis,
            ...(config.redisWaitReplicas === undefined ? {} : { replicas: config.redisWaitReplicas }),
          }),
        }
      : {}),
    ...authenticationOf(config),
  };
}

/**
 * OAuth access tokens when BATON_AUTH_SERVERS is set (static tokens too), else static tokens alone.
 * A page served beside the endpoint (the examples' vault page) identifies its visitors with this
 * same hook, so both name a caller alike (examples-vault-page.ts).
 */
export function authenticationOf(config: EnvironmentConfig): Pick<BatonOptions, 'authenticate' | 'protectedResource'> {
  const resource = `${config.publicUrl}/mcp`;
  if (config.oauth) {
    const { authenticate, protectedResource } = oauthResourceServer(
      {
        resource,
        ...config.oauth,
        ...(config.tokens ? { staticTokens: config.tokens } : {}),
      },
      stderrLogger,
    );
    return { authenticate, protectedResource };
  }
  if (!config.tokens) return {};
  return {
    authenticate: staticBearerTokens(config.tokens),
    protectedResource: { resource, authorizationServers: config.authorizationServers },
  };
}

/**
 * BATON_ALLOWED_HOSTS replaces the default Host allow-list (loopback names on a loopback bind,
 * none elsewhere); BATON_ALLOWED_ORIGINS adds origins besides the server's own.
 */
export function originPolicyOf(
  config: Pick<EnvironmentConfig, 'host' | 'allowedHosts' | 'allowedOrigins'>,
): OriginPolicy {
  return definedFields({
    allowedHosts: config.allowedHosts ?? (isLoopbackHost(config.host) ? LOOPBACK_HOSTS : undefined),
    allowedOrigins: config.allowedOrigins,
  });
}

/**
 * Off loopback with no Host allow-list, a DNS-rebinding page (evil.example resolving to this
 * server's address) reaches the endpoint with a matching Origin. Said loudly at start-up.
 */
export function openHostWarning(config: Pick<EnvironmentConfig, 'host' | 'allowedHosts'>): string | undefined {
  if (isLoopbackHost(config.host) || config.allowedHosts) return undefined;
  return [
    '',
    '################################################################################',
    `#  WARNING: listening on ${config.host} with no Host allow-list.`,
    '#  Any Host header is answered, so a DNS-rebinding web page can reach this',
    '#  server through a browser on its network. Set BATON_ALLOWED_HOSTS to the',
    '#  names clients use (e.g. mcp.example.com). See docs/security.md.',
    '################################################################################',
    '',
  ].join('\n');
}

/**
 * Checks the Redis behind the single-use guard before serving: a setting that breaks exactly once
 * stops the server (exit 78, with the fix); a weaker one is logged. Redis down at start-up is
 * logged too: single-use rounds fail closed until it is back.
 */
export async function checkSingleUseGuard(options: Partial<BatonOptions>, logger: Logger): Promise<void> {
  const guard = options.replayGuard;
  if (!(guard instanceof RedisReplayGuard)) return;
  let report;
  try {
    report = await guard.check();
  } catch (error) {
    logger.warn('redis_guard_unchecked', { error: String(error) });
    return;
  }
  for (const message of report.warnings) logger.warn('redis_guard_setting', { message });
  if (report.problems.length > 0) {
    await guard.close();
    throw new ConfigurationError(report.problems.join('\n'));
  }
}
