/**
 * Validates OAuth access tokens that are JWTs signed by a configured issuer (spec,
 * basic/authorization "Token Handling": an MCP server MUST validate tokens and accept only those
 * issued for it). What is checked, in order: the header's `typ` (RFC 9068's `at+jwt`, or a plain
 * `JWT`), the algorithm against an asymmetric allow-list (never `none`, never HMAC: a public key
 * must not become a shared secret), `iss` exactly one of the issuers, the signature with the
 * issuer's published keys, `aud` naming this server's canonical URI exactly (RFC 8707), and
 * `exp`/`nbf` with a small leeway. The caller becomes the principal `<iss>|<sub>`.
 *
 * Keys come from each issuer's metadata (`jwks_uri`), cached, and fetched again when a token names
 * a key the cache does not hold, at most once per cooldown, so an issuer's key rotation needs no
 * restart and a flood of made-up `kid`s costs the issuer one request per cooldown.
 */
import {
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import type { Logger } from '../engine/index.js';
import type { Principal } from '../protocol/index.js';
import { AccessTokenRejected, type RejectionReason } from './access-token-rejected.js';
import { discoverIssuer } from './issuer-metadata.js';

/** Every asymmetric JWS algorithm jose verifies. HMAC (`HS*`) and `none` are never accepted. */
export const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

export const DEFAULT_LEEWAY_SECONDS = 30;
export const DEFAULT_KEY_REFRESH_COOLDOWN_MS = 30_000;
export const DEFAULT_KEY_CACHE_MAX_AGE_MS = 10 * 60_000;
export const DEFAULT_FETCH_TIMEOUT_MS = 5_000;

/** RFC 9068 section 2.2: the claims every `at+jwt` carries. */
const JWT_PROFILE_CLAIMS = ['iss', 'exp', 'aud', 'sub', 'client_id', 'iat', 'jti'];
/** What any access token must carry to name a caller and an end. */
const BASE_CLAIMS = ['iss', 'exp', 'aud', 'sub'];

export interface AccessTokenOptions {
  /** Issuer identifiers, compared exactly with `iss` (BATON_AUTH_SERVERS). */
  issuers: readonly string[];
  /** The canonical URI of this server that `aud` must name (BATON_AUDIENCE). */
  audience: string;
  /** Clock skew allowed on `exp`, `nbf` and `iat`, in seconds (30; BATON_TOKEN_LEEWAY_SECONDS). */
  leewaySeconds?: number;
  /** A subset of ASYMMETRIC_ALGORITHMS to accept (all of them). */
  algorithms?: readonly string[];
  /** Least time between two fetches of one issuer's keys (30 s): an unknown `kid` waits that long. */
  keyRefreshCooldownMs?: number;
  /** How long fetched keys are used before they are fetched again (10 min). */
  keyCacheMaxAgeMs?: number;
  /** Timeout of one metadata or key-set request (5 s). */
  fetchTimeoutMs?: number;
  clock?: () => number;
  logger?: Logger;
}

interface IssuerKeys {
  keys?: JWTVerifyGetKey;
  pending?: Promise<JWTVerifyGetKey> | undefined;
  /** When discovery last failed: it is not tried again before the cooldown has passed. */
  failedAt?: number;
}

/** Marks a key lookup that failed for want of the issuer (not for the token). */
class KeysUnavailable extends Error {}

export class AccessTokenVerifier {
  readonly #options: AccessTokenOptions;
  readonly #issuers = new Map<string, IssuerKeys>();
  readonly #algorithms: string[];
  readonly #clock: () => number;

  constructor(options: AccessTokenOptions) {
    this.#options = options;
    this.#clock = options.clock ?? Date.now;
    this.#algorithms = [...(options.algorithms ?? ASYMMETRIC_ALGORITHMS)];
    const unsafe = this.#algorithms.filter((alg) => !(ASYMMETRIC_ALGORITHMS as readonly string[]).includes(alg));
    if (unsafe.length > 0) throw new TypeError(`Not an asymmetric JWS algorithm: ${unsafe.join(', ')}`);
    for (const issuer of options.issuers) this.#issuers.set(issuer, {});
  }

  /** The caller a valid token names; throws AccessTokenRejected otherwise. */
  async verify(token: string): Promise<Principal> {
    try {
      return await this.#verify(token);
    } catch (error) {
      const rejected = error instanceof AccessTokenRejected ? error : new AccessTokenRejected(reasonOf(error));
      this.#options.logger?.info('access_token_rejected', { reason: rejected.reason });
      throw rejected;
    }
  }

  async #verify(token: string): Promise<Principal> {
    const header = decodeProtectedHeader(token);
    const profile = accessTokenProfile(header.typ);
    if (profile === undefined) throw new AccessTokenRejected('wrong_type');
    // Checked before any key is fetched: a token with another algorithm never costs a request.
    if (typeof header.alg !== 'string' || !this.#algorithms.includes(header.alg)) {
      throw new AccessTokenRejected('algorithm');
    }
    const { iss } = decodeJwt(token);
    if (typeof iss !== 'string' || !this.#issuers.has(iss)) throw new AccessTokenRejected('issuer');
    const keys = await this.#keysOf(iss);
    const { payload } = await jwtVerify(token, guardKeys(keys), {
      issuer: iss,
      audience: this.#options.audience,
      algorithms: this.#algorithms,
      clockTolerance: this.#options.leewaySeconds ?? DEFAULT_LEEWAY_SECONDS,
      currentDate: new Date(this.#clock()),
      requiredClaims: profile === 'at+jwt' ? JWT_PROFILE_CLAIMS : BASE_CLAIMS,
    });
    return principalOf(iss, payload);
  }

  /** The issuer's key set, discovered once; a failed discovery is retried after the cooldown. */
  #keysOf(issuer: string): Promise<JWTVerifyGetKey> {
    const entry = this.#issuers.get(issuer)!;
    if (entry.keys) return Promise.resolve(entry.keys);
    if (entry.pending) return entry.pending;
    const cooldown = this.#options.keyRefreshCooldownMs ?? DEFAULT_KEY_REFRESH_COOLDOWN_MS;
    if (entry.failedAt !== undefined && this.#clock() - entry.failedAt < cooldown) {
      return Promise.reject(new AccessTokenRejected('issuer_unavailable'));
    }
    const timeoutMs = this.#options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
    entry.pending = discoverIssuer(issuer, timeoutMs).then(
      (metadata) => {
        entry.keys = createRemoteJWKSet(new URL(metadata.jwksUri), {
          cooldownDuration: cooldown,
          cacheMaxAge: this.#options.keyCacheMaxAgeMs ?? DEFAULT_KEY_CACHE_MAX_AGE_MS,
          timeoutDuration: timeoutMs,
        });
        entry.pending = undefined;
        return entry.keys;
      },
      (error: unknown) => {
        entry.pending = undefined;
        entry.failedAt = this.#clock();
        this.#options.logger?.warn('issuer_unavailable', { issuer, error: String((error as Error)?.message ?? error) });
        throw new AccessTokenRejected('issuer_unavailable');
      },
    );
    return entry.pending;
  }
}

/** `at+jwt` (RFC 9068, with its required claims), `jwt` (no `typ`, or `JWT`), or undefined: refused. */
function accessTokenProfile(typ: unknown): 'at+jwt' | 'jwt' | undefined {
  if (typ === undefined) return 'jwt';
  if (typeof typ !== 'string') return undefined;
  const normalized = typ.toLowerCase().replace(/^application\//, '');
  if (normalized === 'at+jwt') return 'at+jwt';
  return normalized === 'jwt' ? 'jwt' : undefined;
}

/** A key lookup that fails for the issuer's sake (timeout, HTTP error) is told apart from a bad token. */
function guardKeys(keys: JWTVerifyGetKey): JWTVerifyGetKey {
  return async (header, token) => {
    try {
      return await keys(header, token);
    } catch (error) {
      // The token's own fault: no key for its kid, or a key of a kind that cannot verify it.
      if (
        error instanceof errors.JWKSNoMatchingKey ||
        error instanceof errors.JWKSMultipleMatchingKeys ||
        error instanceof errors.JOSENotSupported ||
        error instanceof errors.JOSEAlgNotAllowed
      ) {
        throw error;
      }
      throw new KeysUnavailable(String((error as Error)?.message ?? error));
    }
  };
}

function principalOf(issuer: string, payload: JWTPayload): Principal {
  const subject = payload.sub;
  if (typeof subject !== 'string' || subject === '') throw new AccessTokenRejected('claims');
  return {
    // `|` cannot appear in an issuer URL (configuration refuses one), so the id splits one way only.
    id: `${issuer}|${subject}`,
    authenticated: true,
    issuer,
    subject,
    scopes: scopesOf(payload),
  };
}

/** RFC 9068 / RFC 8693 `scope` (space-separated); some issuers send `scp` (a string or a list). */
function scopesOf(payload: JWTPayload): string[] {
  const raw = payload.scope ?? payload.scp;
  if (typeof raw === 'string') return raw.split(' ').filter(Boolean);
  if (Array.isArray(raw)) return raw.filter((scope): scope is string => typeof scope === 'string');
  return [];
}

function reasonOf(error: unknown): RejectionReason {
  if (error instanceof KeysUnavailable) return 'issuer_unavailable';
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'nbf':
      case 'iat':
        return error.reason === 'check_failed' ? 'not_yet_valid' : 'claims';
      case 'aud':
        return error.reason === 'check_failed' ? 'audience' : 'claims';
      case 'iss':
        return 'issuer';
      default:
        return 'claims';
    }
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) return 'algorithm';
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return 'unknown_key';
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'signature';
  return 'malformed';
}
