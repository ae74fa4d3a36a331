/**
 * Where an issuer publishes its signing keys: its authorization server metadata (RFC 8414), or its
 * OpenID Provider configuration, tried in the order the spec gives clients (basic/authorization,
 * "Authorization Server Metadata Discovery"). A document whose `issuer` is not the exact issuer
 * asked for is not used (RFC 8414 section 3.3), so a metadata URL cannot lend another issuer's keys.
 * Each document is fetched within bounded-fetch.ts's bounds (timeout, size cap, no redirect).
 */
import { fetchBoundedJson, type FetchBounds } from './bounded-fetch.js';

export interface IssuerMetadata {
  issuer: string;
  jwksUri: string;
}

/** The well-known URLs to try for an issuer, in order. */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  if (path === '') {
    return [`${url.origin}/.well-known/oauth-authorization-server`, `${url.origin}/.well-known/openid-configuration`];
  }
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

/** HTTPS, or plain HTTP on a loopback host (development and tests only; spec: AS endpoints MUST be HTTPS). */
export function isSecureEnough(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  const host = url.hostname;
  return url.protocol === 'http:' && (host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host));
}

/** The issuer's metadata; throws when no well-known URL answers with a document for it. */
export async function discoverIssuer(issuer: string, bounds: FetchBounds): Promise<IssuerMetadata> {
  const problems: string[] = [];
  // At most three URLs, each within its bounds: one discovery costs the issuer three requests at most.
  for (const url of metadataUrls(issuer)) {
    let document: unknown;
    try {
      document = await fetchBoundedJson(url, bounds);
    } catch (error) {
      problems.push(`${url}: ${(error as Error).message}`);
      continue;
    }
    if (typeof document !== 'object' || document === null || Array.isArray(document)) {
      problems.push(`${url}: no metadata document`);
      continue;
    }
    const { issuer: named, jwks_uri: jwksUri } = document as Record<string, unknown>;
    if (named !== issuer) {
      problems.push(`${url}: names issuer ${JSON.stringify(named)}`);
      continue;
    }
    if (typeof jwksUri !== 'string' || !URL.canParse(jwksUri) || !isSecureEnough(new URL(jwksUri))) {
      problems.push(`${url}: jwks_uri is missing or not https`);
      continue;
    }
    return { issuer, jwksUri };
  }
  throw new Error(`no usable metadata for issuer ${issuer} (${problems.join('; ')})`);
}
