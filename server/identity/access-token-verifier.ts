/**
 * Validates OAuth access tokens that are JWTs signed by a configured issuer (spec,
 * basic/authorization "Token Handling": an MCP server MUST validate tokens and accept only those
 * issued for it). What is checked, in order: the header's `typ` (RFC 9068's `at+jwt`, or a plain
 * `JWT`), the algorithm against an asymmetric allow-list (never `none`, never HMAC: a public key
 * must not become a shared secret), `iss` exactly one of the issuers, the signature with the
 * issuer's published keys, `aud` naming this server's canonical URI exactly (RFC 8707),
 * `exp`/`nbf` with a small leeway, `iat` not in the future beyond it, and a lifetime (`exp - iat`,
 * or `exp - now` without `iat`) of at most a day by default. Before all of these, the token must be
 * a compact JWS in canonical base64url (compact-jws.ts). The caller becomes `<iss>|<sub>`.
 *
 * Keys come from each issuer's metadata (`jwks_uri`), cached, and fetched again when a token names
 * a key the cache does not hold, within a per-issuer budget that holds whether the issuer answers
 * well or not (issuer-keys.ts), so an issuer's key rotation needs no restart and a flood of
 * made-up `kid`s costs the issuer one request per cooldown at most.
 */
import { decodeJwt, decodeProtectedHeader, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { Logger } from '../engine/index.js';
import type { Principal } from '../protocol/index.js';
import { AccessTokenRejected, type RejectionReason } from './access-token-rejected.js';
import { isStrictCompactJws } from './compact-jws.js';
import { IssuerKeys } from './issuer-keys.js';
import { DEFAULT_REJECTION_LOG_INTERVAL_MS, RejectionLog } from './rejection-log.js';

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
/** Repeated failures double the wait from the cooldown up to this. */
export const DEFAULT_KEY_FETCH_BACKOFF_MAX_MS = 2 * 60_000;
/** While refreshes fail, the last good keys are used for this long after they were fetched. */
export const DEFAULT_KEY_STALE_MAX_AGE_MS = 60 * 60_000;
/** Real key sets are a few KB; a cap far above any of them keeps a hostile one out of memory. */
export const DEFAULT_JWKS_MAX_BYTES = 1024 * 1024;
/** Metadata documents are a few KB too. */
export const DEFAULT_METADATA_MAX_BYTES = 64 * 1024;
/** The longest `exp - iat` accepted: access tokens live minutes to hours, never years. */
export const DEFAULT_MAX_TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

/** RFC 9068 section 2.2: the claims every `at+jwt` carries. */
const JWT_PROFILE_CLAIMS = ['iss', 'exp', 'aud', 'sub', 'client_id', 'iat', 'jti'];
/** What any access token must carry to name a caller and an end. */
const BASE_CLAIMS = ['iss', 'exp', 'aud', 'sub'];

/** Which issuers' tokens `AccessTokenVerifier` accepts, for which audience, and its fetch limits. */
export interface AccessTokenOptions {
  /** Issuer identifiers, compared exactly with `iss` (BATON_AUTH_SERVERS). */
  issuers: readonly string[];
  /** The canonical URI of this server that `aud` must name (BATON_AUDIENCE). */
  audience: string;
  /** Clock skew allowed on `exp`, `nbf` and `iat`, in seconds (30; BATON_TOKEN_LEEWAY_SECONDS). */
  leewaySeconds?: number;
  /** A subset of ASYMMETRIC_ALGORITHMS to accept (all of them). */
  algorithms?: readonly string[];
  /**
   * Least time between two fetches of one issuer's keys (30 s), good or failed: an unknown `kid`
   * waits that long, and a failing issuer longer (backoff).
   */
  keyRefreshCooldownMs?: number;
  /** The longest wait between two failed fetches of one issuer's keys (2 min). */
  keyFetchBackoffMaxMs?: number;
  /** How long fetched keys are used before they are fetched again (10 min). */
  keyCacheMaxAgeMs?: number;
  /** Timeout of one metadata or key-set request, body included (5 s). */
  fetchTimeoutMs?: number;
  /** The largest JWKS body read (1 MiB); a larger one is a failed fetch. */
  jwksMaxBytes?: number;
  /** The largest metadata body read (64 KiB). */
  metadataMaxBytes?: number;
  /** The longest lifetime accepted, `exp - iat` (or `exp - now`), in seconds (86,400; BATON_TOKEN_MAX_LIFETIME_SECONDS). */
  maxTokenLifetimeSeconds?: number;
  /** At most one `access_token_rejected` line per reason per this many ms (10 s; 0 logs every one). */
  rejectionLogIntervalMs?: number;
  clock?: () => number;
  logger?: Logger;
}

/**
 * Checks OAuth access tokens (JWTs from the configured issuers, for this server's audience) and
 * names the caller `<iss>|<sub>`. `createServer({ oauth })` builds one; build it yourself only
 * for an `authenticate` hook of your own.
 */
export class AccessTokenVerifier {
  readonly #options: AccessTokenOptions;
  /** Keyed by the configured issuer string: `iss` is looked up exactly, never by prefix. */
  readonly #issuers = new Map<string, IssuerKeys>();
  readonly #algorithms: string[];
  readonly #clock: () => number;
  readonly #leewaySeconds: number;
  readonly #maxLifetimeSeconds: number;
  readonly #rejections: RejectionLog;

  constructor(options: AccessTokenOptions) {
    this.#options = options;
    this.#clock = options.clock ?? Date.now;
    this.#algorithms = [...(options.algorithms ?? ASYMMETRIC_ALGORITHMS)];
    const unsafe = this.#algorithms.filter((alg) => !(ASYMMETRIC_ALGORITHMS as readonly string[]).includes(alg));
    if (unsafe.length > 0) throw new TypeError(`Not an asymmetric JWS algorithm: ${unsafe.join(', ')}`);
    this.#leewaySeconds = options.leewaySeconds ?? DEFAULT_LEEWAY_SECONDS;
    this.#maxLifetimeSeconds = options.maxTokenLifetimeSeconds ?? DEFAULT_MAX_TOKEN_LIFETIME_SECONDS;
    this.#rejections = new RejectionLog(
      options.logger,
      options.rejectionLogIntervalMs ?? DEFAULT_REJECTION_LOG_INTERVAL_MS,
      this.#clock,
    );
    const policy = {
      cooldownMs: options.keyRefreshCooldownMs ?? DEFAULT_KEY_REFRESH_COOLDOWN_MS,
      backoffMaxMs: options.keyFetchBackoffMaxMs ?? DEFAULT_KEY_FETCH_BACKOFF_MAX_MS,
      cacheMaxAgeMs: options.keyCacheMaxAgeMs ?? DEFAULT_KEY_CACHE_MAX_AGE_MS,
      staleMaxAgeMs: DEFAULT_KEY_STALE_MAX_AGE_MS,
      timeoutMs: options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS,
      metadataMaxBytes: options.metadataMaxBytes ?? DEFAULT_METADATA_MAX_BYTES,
      jwksMaxBytes: options.jwksMaxBytes ?? DEFAULT_JWKS_MAX_BYTES,
    };
    for (const issuer of options.issuers) {
      this.#issuers.set(issuer, new IssuerKeys(issuer, policy, this.#clock, options.logger));
    }
  }

  /** The caller a valid token names; throws AccessTokenRejected otherwise. */
  async verify(token: string): Promise<Principal> {
    try {
      return await this.#verify(token);
    } catch (error) {
      const rejected = error instanceof AccessTokenRejected ? error : new AccessTokenRejected(reasonOf(error));
      this.#rejections.rejected(rejected.reason);
      throw rejected;
    }
  }

  async #verify(token: string): Promise<Principal> {
    if (!isStrictCompactJws(token)) throw new AccessTokenRejected('malformed');
    const header = decodeProtectedHeader(token);
    const profile = accessTokenProfile(header.typ);
    if (profile === undefined) throw new AccessTokenRejected('wrong_type');
    // Checked before any key is fetched: a token with another algorithm never costs a request.
    if (typeof header.alg !== 'string' || !this.#algorithms.includes(header.alg)) {
      throw new AccessTokenRejected('algorithm');
    }
    const { iss } = decodeJwt(token);
    // An exact Map look-up: a longer string that starts with an issuer is another issuer.
    const keys = typeof iss === 'string' ? this.#issuers.get(iss) : undefined;
    if (keys === undefined) throw new AccessTokenRejected('issuer');
    const { payload } = await jwtVerify(token, keyLookup(keys), {
      // The configured issuer, not the token's own `iss`: jose checks it a second time.
      issuer: keys.issuer,
      audience: this.#options.audience,
      algorithms: this.#algorithms,
      clockTolerance: this.#leewaySeconds,
      currentDate: new Date(this.#clock()),
      requiredClaims: profile === 'at+jwt' ? JWT_PROFILE_CLAIMS : BASE_CLAIMS,
    });
    this.#checkLifetime(payload);
    return principalOf(keys.issuer, payload);
  }

  /**
   * jose checks `exp` and `nbf` but lets an `iat` in the future pass, and no lifetime is too long
   * for it: a token issued "next year", or valid until 9999, would outlive any key rotation.
   */
  #checkLifetime(payload: JWTPayload): void {
    const now = Math.floor(this.#clock() / 1000);
    // Both are numbers here: jwtVerify refused a non-numeric `iat` and required `exp`.
    const { iat, exp } = payload as { iat?: number; exp: number };
    if (iat !== undefined && iat > now + this.#leewaySeconds) throw new AccessTokenRejected('not_yet_valid');
    if (exp - (iat ?? now) > this.#maxLifetimeSeconds) throw new AccessTokenRejected('lifetime');
  }
}

/**
 * The key for one token from the issuer's cached keys; an unknown `kid` gets keys fetched again
 * when the issuer's budget allows, else 401 (`unknown_key`), or 503 (`issuer_unavailable`) while
 * the issuer's fetches fail, since the key may be one it published meanwhile.
 */
function keyLookup(keys: IssuerKeys): JWTVerifyGetKey {
  return async (header, token) => {
    const select = await keys.current();
    try {
      return await select(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      const newer = await keys.newerThan(select);
      if (newer) return newer(header, token);
      if (keys.failing) throw new AccessTokenRejected('issuer_unavailable');
      throw error;
    }
  };
}

/** `at+jwt` (RFC 9068, with its required claims), `jwt` (no `typ`, or `JWT`), or undefined: refused. */
function accessTokenProfile(typ: unknown): 'at+jwt' | 'jwt' | undefined {
  if (typ === undefined) return 'jwt';
  if (typeof typ !== 'string') return undefined;
  const normalized = typ.toLowerCase().replace(/^application\//, '');
  if (normalized === 'at+jwt') return 'at+jwt';
  return normalized === 'jwt' ? 'jwt' : undefined;
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
