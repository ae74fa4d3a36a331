/**
 * A real OpenID Provider for tests: `oidc-provider` (a certified implementation) in this process
 * on 127.0.0.1, issuing RFC 9068 JWT access tokens for one resource (RFC 8707) by the client
 * credentials grant. `rotate` swaps in a provider with other signing keys behind the same issuer
 * URL, as an issuer that rotates its keys does; `jwksRequests` counts fetches of its key set.
 * The signing keys are made here, so a test can also sign tokens of its own with them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider from 'oidc-provider';

/** A confidential client and the scopes the issuer grants it at the resource. */
export interface IssuerClient {
  clientId: string;
  clientSecret: string;
  scopes: string[];
}

export interface SigningKey {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: CryptoKey;
  publicJwk: JWK;
  privateJwk: JWK;
}

export interface TestIssuer {
  /** The issuer identifier, e.g. `http://127.0.0.1:40123` (no trailing slash). */
  issuer: string;
  /** The key the issuer signs with now. */
  key: SigningKey;
  /** Fetches of the JWKS document so far. */
  jwksRequests: number;
  /** Every path requested so far, in order (discovery, keys, token). */
  paths: string[];
  /** A client credentials token for `resource`, asking for `scope`. */
  token(client: IssuerClient, resource: string, scope?: string): Promise<{ accessToken: string; scope?: string }>;
  /** From now on the issuer publishes and signs with `key` only (the old key is gone). */
  rotate(key: SigningKey): void;
  close(): Promise<void>;
}

export async function signingKey(kid: string, alg: 'RS256' | 'ES256' = 'ES256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateKey, publicJwk, privateJwk };
}

/**
 * A public client that signs a user in through the browser: authorization code with PKCE, at
 * `redirectUri`. The issuer then runs oidc-provider's development login and consent pages
 * (any login and password sign in as that account), which a test drives with plain HTTP.
 */
export interface BrowserClient {
  clientId: string;
  redirectUri: string;
  scopes: string[];
}

function provider(issuer: string, key: SigningKey, clients: IssuerClient[], browser?: BrowserClient): Provider {
  const byId = new Map<string, { scopes: string[] }>(clients.map((client) => [client.clientId, client]));
  if (browser) byId.set(browser.clientId, browser);
  const allScopes = [...new Set([...clients, ...(browser ? [browser] : [])].flatMap((client) => client.scopes))];
  const browserClients = browser
    ? [
        {
          client_id: browser.clientId,
          token_endpoint_auth_method: 'none' as const,
          grant_types: ['authorization_code'],
          response_types: ['code' as const],
          redirect_uris: [browser.redirectUri],
          scope: allScopes.join(' '),
          id_token_signed_response_alg: key.alg,
        },
      ]
    : [];
  return new Provider(issuer, {
    pkce: { required: () => true },
    clients: [
      ...browserClients,
      ...clients.map((client) => ({
        client_id: client.clientId,
        client_secret: client.clientSecret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        scope: allScopes.join(' '),
        id_token_signed_response_alg: key.alg,
      })),
    ],
    jwks: { keys: [key.privateJwk] },
    ttl: {
      ClientCredentials: 300,
      AccessToken: 300,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 600,
      Grant: 600,
    },
    scopes: allScopes,
    features: {
      devInteractions: { enabled: browser !== undefined },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // Any resource the client names; the scopes granted there are the client's own.
        getResourceServerInfo: (_ctx, resource, client) => ({
          scope: (byId.get(client.clientId)?.scopes ?? []).join(' '),
          audience: resource,
          accessTokenTTL: 300,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: key.alg, kid: key.kid } },
        }),
      },
    },
  });
}

export interface IssuerOptions {
  /**
   * Serve only `/.well-known/openid-configuration`, as many OpenID Providers do: RFC 8414's
   * `/.well-known/oauth-authorization-server` answers 404.
   */
  openidConfigurationOnly?: boolean;
  /** Also serve a browser client (authorization code + PKCE) with the development login pages. */
  browser?: BrowserClient;
}

export async function startIssuer(
  clients: IssuerClient[],
  firstKey?: SigningKey,
  options: IssuerOptions = {},
): Promise<TestIssuer> {
  let current: Provider | undefined;
  let key = firstKey ?? (await signingKey('k1'));
  const counters = { jwks: 0 };
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    paths.push(req.url ?? '');
    if (req.url?.startsWith('/jwks')) counters.jwks += 1;
    if (options.openidConfigurationOnly && req.url?.startsWith('/.well-known/oauth-authorization-server')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
      return;
    }
    void current!.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  current = provider(issuer, key, clients, options.browser);
  return {
    issuer,
    get key() {
      return key;
    },
    get jwksRequests() {
      return counters.jwks;
    },
    paths,
    async token(client, resource, scope) {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          resource,
          ...(scope ? { scope } : {}),
        }),
      });
      const body = (await response.json()) as Record<string, unknown>;
      if (response.status !== 200) throw new Error(`token request failed: ${JSON.stringify(body)}`);
      return { accessToken: body.access_token as string, ...(body.scope ? { scope: body.scope as string } : {}) };
    },
    rotate(next) {
      key = next;
      current = provider(issuer, next, clients, options.browser);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
