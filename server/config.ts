/**
 * Settings from the environment, checked once at start-up. A setting that cannot be used stops
 * the server with a message that says how to fix it.
 */
import { randomBytes } from 'node:crypto';
import { ConfigurationError, KeyRing, parseKeyRing } from './engine/index.js';

export interface EnvironmentConfig {
  port: number;
  host: string;
  keyRing: KeyRing;
  /** True when no BATON_KEYS was given and an ephemeral key was generated. */
  devKey: boolean;
  stateTtlSeconds?: number;
  publicUrl: string;
}

function positiveInteger(name: string, value: string | undefined, fallback?: number): number | undefined {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed <= 0) {
    throw new ConfigurationError(`${name} must be a positive whole number, got "${value}".`);
  }
  return parsed;
}

export function configFromEnvironment(env: NodeJS.ProcessEnv = process.env): EnvironmentConfig {
  const port = positiveInteger('PORT', env.PORT, 3000)!;
  if (port > 65535) throw new ConfigurationError(`PORT must be at most 65535, got ${port}.`);
  const host = env.HOST || '127.0.0.1';
  const devKey = !env.BATON_KEYS;
  const keyRing = env.BATON_KEYS
    ? parseKeyRing(env.BATON_KEYS)
    : new KeyRing([{ id: 'dev', secret: new Uint8Array(randomBytes(32)) }]);
  const stateTtlSeconds = positiveInteger('BATON_STATE_TTL', env.BATON_STATE_TTL);
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    port,
    host,
    keyRing,
    devKey,
    ...(stateTtlSeconds ? { stateTtlSeconds } : {}),
    publicUrl: (env.BATON_PUBLIC_URL || `http://${shownHost}:${port}`).replace(/\/$/, ''),
  };
}

export const DEV_KEY_WARNING = [
  '',
  '################################################################################',
  '#  WARNING: BATON_KEYS is not set. Using an EPHEMERAL development key.         #',
  '#  Multi-step flows will NOT survive a restart and will NOT work across        #',
  '#  instances. Generate a key with `npx baton keygen` and set BATON_KEYS.       #',
  '################################################################################',
  '',
].join('\n');
