/**
 * The authorization code flow with PKCE, driven by the official client (`@modelcontextprotocol/client`)
 * against Baton and a real OpenID Provider (oidc-provider), headless: the client finds the issuer
 * from Baton's 401, sends the user to the authorization URL through its `redirectToAuthorization`
 * callback, and this test plays the browser with plain HTTP and cookies through the provider's
 * login and consent pages back to the redirect URI. The client redeems the code with its PKCE
 * verifier and completes a multi-round tool with the access token, as the user who signed in.
 */
import { expect } from 'chai';
import {
  UnauthorizedError,
  type CallToolResult,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { countingRelease } from '../helpers/counting-release.js';
import { startIssuer, type TestIssuer } from '../helpers/oidc-issuer.js';
import { answeringClient, serveScopedRelease } from '../helpers/scoped-release.js';

const REDIRECT_URI = 'http://127.0.0.1:1/callback';
const CLIENT_ID = 'desk-app';
const STATE = 'state-4e1f';

/** The client application's side: where the user goes, and what it keeps between the two legs. */
class BrowserFlowProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  #tokens: StoredOAuthTokens | undefined;
  #verifier = '';
  readonly redirectUrl = REDIRECT_URI;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: 'Desk app',
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  state(): string {
    return STATE;
  }
  clientInformation() {
    return { client_id: CLIENT_ID };
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.#tokens = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier;
  }
  codeVerifier() {
    return this.#verifier;
  }
  // Kept with the verifier, so the callback leg is checked against the server it started with.
  #discovery: unknown;
  saveDiscoveryState(state: unknown) {
    this.#discovery = state;
  }
  discoveryState() {
    return this.#discovery as never;
  }
}

/**
 * A browser without a screen: follows redirects by hand, keeps the provider's cookies, and submits
 * its login form (any login and password) and its consent form, until the redirect URI is reached.
 */
async function signIn(start: URL, login: string): Promise<URL> {
  const cookies = new Map<string, string>();
  const send = async (url: string, form?: Record<string, string>) => {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const [name, ...value] = pair!.split('=');
      cookies.set(name!.trim(), value.join('='));
    }
    return response;
  };
  let url = start.href;
  let form: Record<string, string> | undefined;
  const seen: string[] = [];
  for (let step = 0; step < 20; step++) {
    const response = await send(url, form);
    form = undefined;
    if (response.status >= 300 && response.status < 400) {
      const next = new URL(response.headers.get('location')!, url);
      if (next.href.startsWith(REDIRECT_URI)) return next;
      url = next.href;
      continue;
    }
    const page = await response.text();
    expect(response.status, page).to.equal(200);
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1];
    if (!action || !prompt) throw new Error(`no form to submit on ${url}: ${page.slice(0, 200)}`);
    seen.push(prompt);
    form = prompt === 'login' ? { prompt, login, password: 'any' } : { prompt };
    url = new URL(action, url).href;
  }
  throw new Error(`the redirect URI was never reached (pages: ${seen.join(', ')})`);
}

describe('official client: authorization code with PKCE against a real provider', function () {
  this.timeout(30_000);
  const release = countingRelease();
  let issuer: TestIssuer;
  let url: string;
  let stop: () => Promise<void>;

  before(async () => {
    issuer = await startIssuer([], undefined, {
      browser: { clientId: CLIENT_ID, redirectUri: REDIRECT_URI, scopes: ['deploy:write'] },
    });
    ({ url, stop } = await serveScopedRelease(release, issuer.issuer));
  });
  after(async () => {
    await stop?.();
    await issuer?.close();
  });

  const connectAs = (provider: BrowserFlowProvider) => answeringClient('baton-auth-code-test', url, provider);

  it('signs the user in through the provider and completes release with the token', async () => {
    const provider = new BrowserFlowProvider();
    const first = connectAs(provider);
    const refused = await first.client.connect(first.transport).then(
      () => undefined,
      (error: unknown) => error,
    );
    // Nothing to send yet: the client handed the user an authorization URL, with PKCE and the resource.
    expect(refused, String(refused)).to.be.instanceOf(UnauthorizedError);
    const authorization = provider.authorizationUrl!;
    expect(authorization.origin).to.equal(issuer.issuer);
    expect(authorization.searchParams.get('code_challenge_method')).to.equal('S256');
    expect(authorization.searchParams.get('resource')).to.equal(url);
    expect(authorization.searchParams.get('scope')).to.equal('deploy:write');

    const callback = await signIn(authorization, 'alice');
    expect(callback.searchParams.get('state')).to.equal(STATE);
    await first.transport.finishAuth(callback.searchParams);
    await first.client.close().catch(() => {});
    // An access token for Baton (RFC 8707 audience), issued to the user who signed in.
    const claims = JSON.parse(Buffer.from(provider.tokens()!.access_token.split('.')[1]!, 'base64url').toString());
    expect(claims).to.include({ iss: issuer.issuer, sub: 'alice', aud: url, client_id: CLIENT_ID });

    const second = connectAs(provider);
    const before = release.counter.deployments;
    try {
      await second.client.connect(second.transport);
      const result = (await second.client.callTool({
        name: 'release',
        arguments: { service: 'billing', version: '2.4.0' },
      })) as CallToolResult;
      expect(result.isError ?? false, JSON.stringify(result)).to.equal(false);
      expect(result.structuredContent).to.include({ released: true, window: 'tonight' });
      expect(release.counter.deployments).to.equal(before + 1);
    } finally {
      await second.client.close();
    }
  });
});
