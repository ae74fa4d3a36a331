/**
 * Why an access token was refused. The reason goes to the log only: the client gets one opaque
 * `invalid_token` challenge whatever it was (a security failure says nothing more).
 */
export type RejectionReason =
  /** Not a compact JWS in canonical base64url, or a header or payload that is not JSON. */
  | 'malformed'
  /** A `typ` other than `at+jwt` or `JWT` (an ID token, a logout token…). */
  | 'wrong_type'
  /** An algorithm outside the asymmetric allow-list (`none`, HMAC…). */
  | 'algorithm'
  /** `iss` is not one of the configured issuers. */
  | 'issuer'
  /** No key of the issuer matches the token's `kid` (even after fetching the keys again). */
  | 'unknown_key'
  | 'signature'
  /** `aud` does not name this server's canonical resource URI. */
  | 'audience'
  | 'expired'
  /** `nbf`, or `iat`, later than now beyond the leeway. */
  | 'not_yet_valid'
  /** `exp - iat` (or `exp - now` without `iat`) longer than the configured maximum (24 h). */
  | 'lifetime'
  /** A required claim is missing or has the wrong type (`sub`, `exp`; RFC 9068's for `at+jwt`). */
  | 'claims'
  /** The issuer's metadata or keys could not be fetched: the token could not be checked (503). */
  | 'issuer_unavailable';

export class AccessTokenRejected extends Error {
  constructor(readonly reason: RejectionReason) {
    super(`access token rejected: ${reason}`);
  }

  /** The token may be fine: only its issuer could not be reached. */
  get unavailable(): boolean {
    return this.reason === 'issuer_unavailable';
  }
}
