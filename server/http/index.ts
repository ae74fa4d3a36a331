/** The HTTP transport's public API (Koa). */
export { createHttpApp, DEFAULT_MAX_BODY_BYTES, type HttpAppOptions } from './http-app.js';
export { AuthenticationError, type Authenticate } from './authenticate.js';
export { originGuard, isLoopbackHost, LOOPBACK_HOSTS, type OriginPolicy } from './origin-guard.js';
export { decodeHeaderValue } from './standard-headers.js';
