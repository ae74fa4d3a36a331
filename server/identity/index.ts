/**
 * Identity at the edge: who an access token names, checked against the issuers' published keys.
 * No Koa here (http/ reads the header and answers the challenge) and no jose beyond this folder.
 */
export {
  AccessTokenVerifier,
  ASYMMETRIC_ALGORITHMS,
  DEFAULT_FETCH_TIMEOUT_MS,
  DEFAULT_KEY_CACHE_MAX_AGE_MS,
  DEFAULT_KEY_REFRESH_COOLDOWN_MS,
  DEFAULT_LEEWAY_SECONDS,
  type AccessTokenOptions,
} from './access-token-verifier.js';
export { AccessTokenRejected, type RejectionReason } from './access-token-rejected.js';
export { discoverIssuer, isSecureEnough, metadataUrls, type IssuerMetadata } from './issuer-metadata.js';
