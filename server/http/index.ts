/** The HTTP transport's public API (Koa). */
export {
  createHttpApp,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_CONCURRENT_REQUESTS,
  DEFAULT_BODY_TIMEOUT_MS,
  type HttpAppOptions,
} from './http-app.js';
export { AuthenticationError, pageVisitor, type Authenticate, type AuthenticationFailure } from './authenticate.js';
export { bearerChallenge, writeChallenge, type ChallengeOptions } from './bearer-challenge.js';
export { bearerToken, parseStaticTokens, staticBearerTokens, staticTokenPrincipal } from './static-bearer-tokens.js';
export { accessTokenAuthentication } from './access-token-authentication.js';
export {
  issuerProblem,
  oauthResourceServer,
  type OAuthOptions,
  type OAuthResourceServer,
} from './oauth-resource-server.js';
export {
  protectedResourceRouter,
  resourceMetadataUrl,
  WELL_KNOWN,
  type ProtectedResourceOptions,
} from './protected-resource.js';
export { ConcurrencyGate } from './concurrency-limit.js';
export { originGuard, isLoopbackHost, LOOPBACK_HOSTS, type OriginPolicy } from './origin-guard.js';
export { decodeHeaderValue } from './standard-headers.js';
export { BodyBudget, DEFAULT_BODY_BYTES_IN_FLIGHT, DEFAULT_BODY_BYTES_PER_CLIENT } from './body-budget.js';
export { BodyAbortedError, BodyTimeoutError, BodyTooLargeError, readBody } from './read-body.js';
export { clientKey } from './client-address.js';
export {
  capSocketsPerClient,
  DEFAULT_CONNECTION_LIMITS,
  serverTimeoutOptions,
  type ConnectionLimits,
} from './connection-limits.js';
export { headerMatchesValue, headerParamValue } from './header-params.js';
