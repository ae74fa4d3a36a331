/**
 * The Authenticate hook for OAuth access tokens (identity/access-token-verifier.ts): reads
 * `Authorization: Bearer`, lets a static development token through first when BATON_TOKENS is
 * also set, and turns every refusal into one opaque `invalid_token` (the log says why). A token
 * that could not be checked because its issuer is out of reach gets 503 instead: it may be fine.
 */
import { AccessTokenRejected, type AccessTokenVerifier } from '../identity/index.js';
import { AuthenticationError, type Authenticate } from './authenticate.js';
import { bearerToken, staticTokenPrincipal } from './static-bearer-tokens.js';

/** Seconds a client is asked to wait when the issuer's keys could not be fetched. */
const ISSUER_RETRY_AFTER_SECONDS = 5;

export function accessTokenAuthentication(
  verifier: AccessTokenVerifier,
  staticTokens?: Map<string, string>,
): Authenticate {
  const staticPrincipal = staticTokens ? staticTokenPrincipal(staticTokens) : undefined;
  return async (ctx) => {
    const token = bearerToken(ctx);
    const known = staticPrincipal?.(token);
    if (known) return known;
    try {
      return await verifier.verify(token);
    } catch (error) {
      if (!(error instanceof AccessTokenRejected)) throw error;
      if (error.unavailable) {
        throw new AuthenticationError('The access token could not be checked now; retry shortly', {
          retryAfterSeconds: ISSUER_RETRY_AFTER_SECONDS,
        });
      }
      throw new AuthenticationError('The access token is not valid', { error: 'invalid_token' });
    }
  };
}
