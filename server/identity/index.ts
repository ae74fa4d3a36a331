/**
 * Identity at the edge: who an access token names, checked against the issuers' published keys.
 * No Koa here (http/ reads the header and answers the challenge) and no jose beyond this folder.
 */
export {
  AccessTokenVerifier,
  ASYMMETRIC_ALGORITHMS,
  DEFAULT_FETCH_TIMEOUT_MS,
  DEFAULT_JWKS_MAX_BYTES,
  DEFAULT_KEY_CACHE_MAX_AGE_MS,
  DEFAULT_KEY_FETCH_BACKOFF_MAX_MS,
  DEFAULT_KEY_REFRESH_COOLDOWN_MS,
  DEFAULT_KEY_STALE_MAX_AGE_MS,
  DEFAULT_LEEWAY_SECONDS,
  DEFAULT_MAX_TOKEN_LIFETIME_SECONDS,
  DEFAULT_METADATA_MAX_BYTES,
  type AccessTokenOptions,
} from './access-token-verifier.js';
export { AccessTokenRejected, type RejectionReason } from './access-token-rejected.js';
export { fetchBoundedJson, IssuerFetchFailed, type FetchBounds } from './bounded-fetch.js';
export { isStrictCompactJws } from './compact-jws.js';
export { backoffMs, IssuerKeys, type KeyFetchPolicy } from './issuer-keys.js';
export { DEFAULT_REJECTION_LOG_INTERVAL_MS, RejectionLog } from './rejection-log.js';
export { discoverIssuer, isSecureEnough, metadataUrls, type IssuerMetadata } from './issuer-metadata.js';
