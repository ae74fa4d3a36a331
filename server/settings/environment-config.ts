/**
 * Settings from the environment, checked once at start-up. A setting that cannot be used stops
 * the server with a message that says how to fix it. docs/configuration.md lists them all.
 */
import { randomBytes } from 'node:crypto';
import {
  ConfigurationError,
  definedFields,
  KeyRing,
  parseKeyRing,
  type RedisTarget,
  type XStatePath,
} from '../engine/index.js';
import { redisFromEnvironment } from './redis-settings.js';
import { issuerProblem, parseStaticTokens, type ConnectionLimits } from '../http/index.js';
import { tracesAsked, type TelemetrySettings } from './telemetry-sdk.js';
import { limitsFromEnvironment, type LimitOptions } from './limit-options.js';
import { consoleFromEnvironment, type ConsoleSettings } from './console-options.js';

export interface EnvironmentConfig {
  port: number;
  host: string;
  keyRing: KeyRing;
  /** True when no BATON_KEYS was given and an ephemeral key was generated. */
  devKey: boolean;
  publicUrl: string;
  /** The Redis a fleet shares, for the single-use guard and tasks (redis-settings.ts). */
  redis?: RedisTarget;
  /** Replicas each single-use claim must reach before its round runs (BATON_REDIS_WAIT_REPLICAS). */
  redisWaitReplicas?: number;
  /** Static bearer tokens, token -> principal (BATON_TOKENS). */
  tokens?: Map<string, string>;
  /** Authorization servers named in the protected-resource metadata (BATON_AUTH_SERVERS). */
  authorizationServers: string[];
  /** OAuth access tokens from those issuers, when BATON_AUTH_SERVERS is set (docs/security.md). */
  oauth?: { issuers: string[]; audience: string; leewaySeconds?: number; maxTokenLifetimeSeconds?: number };
  /** The 2025-11-25 layer: off with BATON_LEGACY=0; BATON_ANSWER_TIMEOUT_MS bounds a question's wait. */
  legacy: false | { answerTimeoutMs?: number };
  limits: {
    stateTtlSeconds?: number;
    maxBodyBytes?: number;
    maxStateLength?: number;
    maxRounds?: number;
    timeBudgetMs?: number;
    maxConcurrentRequests?: number;
    maxBodyBytesInFlight?: number;
    maxBodyBytesPerClient?: number;
    singleUseQuota?: number;
  };
  /** Tasks (docs/tasks.md): lifetime, polling, and how fast a dead instance's work moves on. */
  tasks: {
    ttlSeconds?: number;
    pollIntervalMs?: number;
    lockMs?: number;
    concurrency?: number;
    stepBudgetMs?: number;
  };
  /** Timeouts and sockets per client (BATON_HEADERS_TIMEOUT_MS, …). */
  connectionLimits: Partial<ConnectionLimits>;
  /** BATON_XSTATE_PATH: `public` runs every round in XState's own actor (docs/xstate.md, "Two paths"). */
  xstatePath?: XStatePath;
  /** Host names and origins this server answers for (BATON_ALLOWED_HOSTS, BATON_ALLOWED_ORIGINS). */
  allowedHosts?: string[];
  allowedOrigins?: string[];
  /** Traces from OTEL_*, Prometheus metrics on BATON_METRICS_PORT (docs/observability.md). */
  telemetry: TelemetrySettings;
  /** Budgets and quotas per caller and per instance (limit-options.ts). */
  perCallerLimits: LimitOptions;
  /** The operator's console (console-options.ts): BATON_CONSOLE, BATON_OPERATORS, BATON_OPERATOR_SCOPE. */
  console: ConsoleSettings;
  /** Tools whose new calls start on a kept version (BATON_START_ON=release=v1): a rolling deploy's first step. */
  startOn?: Record<string, string>;
}

function list(value: string | undefined): string[] | undefined {
  const items = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length > 0 ? items : undefined;
}

/** BATON_START_ON: `tool=version` pairs, comma-separated (docs/deploy.md, "Rolling deploys"). */
function startOnFrom(value: string | undefined): Record<string, string> | undefined {
  const pairs = list(value);
  if (!pairs) return undefined;
  const startOn: Record<string, string> = {};
  for (const pair of pairs) {
    const match = /^([^=\s]+)=([^=\s]+)$/.exec(pair);
    if (!match || Object.hasOwn(startOn, match[1]!)) {
      throw new ConfigurationError(
        `BATON_START_ON takes tool=version pairs, each tool once (release=v1,ship-release=v3), got "${pair}".`,
      );
    }
    startOn[match[1]!] = match[2]!;
  }
  return startOn;
}

function nonNegativeInteger(name: string, value: string | undefined): number | undefined {
  if (value === '0') return 0;
  return positiveInteger(name, value);
}

function positiveInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed <= 0) {
    throw new ConfigurationError(`${name} must be a positive whole number, got "${value}".`);
  }
  return parsed;
}

function xstatePathFrom(value: string | undefined): XStatePath | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'auto' || value === 'public') return value;
  throw new ConfigurationError(`BATON_XSTATE_PATH must be "auto" or "public", got "${value}".`);
}

/**
 * How a URL names a listening address: a wildcard (0.0.0.0, ::) as 127.0.0.1, which this machine
 * can reach, and an IPv6 address in brackets.
 */
export function urlHost(address: string): string {
  if (address === '0.0.0.0' || address === '::') return '127.0.0.1';
  return address.includes(':') ? `[${address}]` : address;
}

/** An absolute http(s) URL, or a ConfigurationError naming the setting. */
function httpUrl(name: string, value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new ConfigurationError(`${name} must be an absolute http:// or https:// URL, got "${value}".`);
  }
  return value;
}

/** An origin as browsers send it: scheme, host and port, nothing else. */
function allowedOrigin(value: string): string {
  const url = new URL(httpUrl('BATON_ALLOWED_ORIGINS', value));
  if (url.origin !== value.replace(/\/$/, '')) {
    throw new ConfigurationError(
      `BATON_ALLOWED_ORIGINS entries are origins like https://app.example.com (no path), got "${value}".`,
    );
  }
  return url.origin;
}

/**
 * BATON_AUTH_SERVERS, BATON_AUDIENCE, BATON_TOKEN_LEEWAY_SECONDS and BATON_TOKEN_MAX_LIFETIME,
 * when OAuth is turned on.
 */
function oauthFrom(env: NodeJS.ProcessEnv, publicUrl: string): EnvironmentConfig['oauth'] {
  const issuers = list(env.BATON_AUTH_SERVERS);
  if (!issuers) return undefined;
  const problems = issuers.map(issuerProblem).filter((problem) => problem !== undefined);
  if (problems.length > 0) throw new ConfigurationError(`BATON_AUTH_SERVERS: ${problems.join('; ')}.`);
  const audience = env.BATON_AUDIENCE ? httpUrl('BATON_AUDIENCE', env.BATON_AUDIENCE) : `${publicUrl}/mcp`;
  const leeway = env.BATON_TOKEN_LEEWAY_SECONDS;
  if (leeway !== undefined && leeway !== '' && !/^(?:[0-9]|[1-9][0-9]|[12][0-9]{2}|300)$/.test(leeway)) {
    throw new ConfigurationError(`BATON_TOKEN_LEEWAY_SECONDS must be a whole number from 0 to 300, got "${leeway}".`);
  }
  const maxLifetime = positiveInteger('BATON_TOKEN_MAX_LIFETIME', env.BATON_TOKEN_MAX_LIFETIME);
  return {
    issuers,
    audience,
    ...(leeway !== undefined && leeway !== '' ? { leewaySeconds: Number(leeway) } : {}),
    ...(maxLifetime !== undefined ? { maxTokenLifetimeSeconds: maxLifetime } : {}),
  };
}

export function configFromEnvironment(env: NodeJS.ProcessEnv = process.env): EnvironmentConfig {
  const port = positiveInteger('PORT', env.PORT) ?? 3000;
  if (port > 65535) throw new ConfigurationError(`PORT must be at most 65535, got ${port}.`);
  const host = env.HOST || '127.0.0.1';
  const devKey = !env.BATON_KEYS;
  const keyRing = env.BATON_KEYS
    ? parseKeyRing(env.BATON_KEYS)
    : new KeyRing([{ id: 'dev', secret: new Uint8Array(randomBytes(32)) }]);
  const shownHost = urlHost(host);
  const publicUrl = httpUrl('BATON_PUBLIC_URL', env.BATON_PUBLIC_URL || `http://${shownHost}:${port}`).replace(
    /\/$/,
    '',
  );
  const metricsPort = positiveInteger('BATON_METRICS_PORT', env.BATON_METRICS_PORT);
  if (metricsPort !== undefined && (metricsPort > 65535 || metricsPort === port)) {
    throw new ConfigurationError(
      `BATON_METRICS_PORT must be a port from 1 to 65535 other than PORT (${port}), got ${metricsPort}.`,
    );
  }
  const redis = redisFromEnvironment(env);
  const tokens = env.BATON_TOKENS ? parseStaticTokens(env.BATON_TOKENS) : undefined;
  return {
    port,
    host,
    keyRing,
    devKey,
    publicUrl,
    ...(redis ? { redis } : {}),
    ...definedFields({
      redisWaitReplicas: nonNegativeInteger('BATON_REDIS_WAIT_REPLICAS', env.BATON_REDIS_WAIT_REPLICAS),
    }),
    ...(tokens ? { tokens } : {}),
    console: consoleFromEnvironment(env, tokens),
    ...definedFields({ oauth: oauthFrom(env, publicUrl) }),
    authorizationServers: (env.BATON_AUTH_SERVERS || publicUrl)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((url) => httpUrl('BATON_AUTH_SERVERS', url)),
    legacy:
      env.BATON_LEGACY === '0'
        ? false
        : definedFields({ answerTimeoutMs: positiveInteger('BATON_ANSWER_TIMEOUT_MS', env.BATON_ANSWER_TIMEOUT_MS) }),
    limits: definedFields({
      stateTtlSeconds: positiveInteger('BATON_STATE_TTL', env.BATON_STATE_TTL),
      maxBodyBytes: positiveInteger('BATON_MAX_BODY_BYTES', env.BATON_MAX_BODY_BYTES),
      maxStateLength: positiveInteger('BATON_MAX_STATE_BYTES', env.BATON_MAX_STATE_BYTES),
      maxRounds: positiveInteger('BATON_MAX_ROUNDS', env.BATON_MAX_ROUNDS),
      timeBudgetMs: positiveInteger('BATON_TIME_BUDGET_MS', env.BATON_TIME_BUDGET_MS),
      maxConcurrentRequests: positiveInteger('BATON_MAX_CONCURRENT', env.BATON_MAX_CONCURRENT),
      maxBodyBytesInFlight: positiveInteger('BATON_MAX_BODY_BYTES_IN_FLIGHT', env.BATON_MAX_BODY_BYTES_IN_FLIGHT),
      maxBodyBytesPerClient: positiveInteger('BATON_MAX_BODY_BYTES_PER_CLIENT', env.BATON_MAX_BODY_BYTES_PER_CLIENT),
      singleUseQuota: positiveInteger('BATON_SINGLE_USE_QUOTA', env.BATON_SINGLE_USE_QUOTA),
    }),
    connectionLimits: definedFields({
      headersTimeoutMs: positiveInteger('BATON_HEADERS_TIMEOUT_MS', env.BATON_HEADERS_TIMEOUT_MS),
      requestTimeoutMs: positiveInteger('BATON_REQUEST_TIMEOUT_MS', env.BATON_REQUEST_TIMEOUT_MS),
      keepAliveTimeoutMs: positiveInteger('BATON_KEEP_ALIVE_TIMEOUT_MS', env.BATON_KEEP_ALIVE_TIMEOUT_MS),
      maxSocketsPerClient: positiveInteger('BATON_MAX_SOCKETS_PER_CLIENT', env.BATON_MAX_SOCKETS_PER_CLIENT),
    }),
    ...definedFields({
      xstatePath: xstatePathFrom(env.BATON_XSTATE_PATH),
      startOn: startOnFrom(env.BATON_START_ON),
      allowedHosts: list(env.BATON_ALLOWED_HOSTS),
      allowedOrigins: list(env.BATON_ALLOWED_ORIGINS)?.map((origin) => allowedOrigin(origin)),
    }),
    telemetry: {
      traces: tracesAsked(env),
      ...definedFields({
        metricsPort,
        // Not HOST: serving MCP on all interfaces must not expose the unauthenticated scrape too.
        metricsHost: metricsPort === undefined ? undefined : env.BATON_METRICS_HOST || '127.0.0.1',
      }),
    },
    perCallerLimits: limitsFromEnvironment(env),
    tasks: definedFields({
      ttlSeconds: positiveInteger('BATON_TASK_TTL', env.BATON_TASK_TTL),
      pollIntervalMs: positiveInteger('BATON_TASK_POLL_MS', env.BATON_TASK_POLL_MS),
      lockMs: positiveInteger('BATON_TASK_LOCK_MS', env.BATON_TASK_LOCK_MS),
      concurrency: positiveInteger('BATON_TASK_CONCURRENCY', env.BATON_TASK_CONCURRENCY),
      stepBudgetMs: positiveInteger('BATON_TASK_STEP_BUDGET_MS', env.BATON_TASK_STEP_BUDGET_MS),
    }),
  };
}

export const TASKS_IN_MEMORY_WARNING = [
  '',
  '################################################################################',
  '#  WARNING: BATON_REDIS_URL is not set. Tasks are kept IN MEMORY and run in    #',
  '#  this process: they are LOST on restart and other instances cannot see them. #',
  '#  Set BATON_REDIS_URL for durable tasks (docs/tasks.md).                      #',
  '################################################################################',
  '',
].join('\n');

export const DEV_KEY_WARNING = [
  '',
  '################################################################################',
  '#  WARNING: BATON_KEYS is not set. Using an EPHEMERAL development key.         #',
  '#  Multi-step flows will NOT survive a restart and will NOT work across        #',
  '#  instances. Generate a key with `npx baton keygen` and set BATON_KEYS.       #',
  '################################################################################',
  '',
].join('\n');
