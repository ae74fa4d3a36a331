/**
 * The examples' vault page as `baton serve` and `baton dev` mount it (examples-vault-page.ts),
 * under OAuth: the flow is bound to the caller's `iss|sub`, so the page must identify its visitor
 * with the same access-token hook as the endpoint. The page once knew only the static tokens:
 * the flow's own user, with the very token that started the flow, got 403.
 */
import { expect } from 'chai';
import { createServer } from '../../server/create-server.js';
import { configFromEnvironment } from '../../server/settings/environment-config.js';
import { examplesVaultPage } from '../../server/cli/examples-vault-page.js';
import { silentLogger } from '../../server/engine/index.js';
import { createMemoryVault, exampleTools } from '../../machines/index.js';
import { callTool } from '../helpers/mcp-http.js';
import { startIssuer, type IssuerClient, type TestIssuer } from '../helpers/oidc-issuer.js';
import { freePort } from '../helpers/spawn-baton.js';
import { closeServer } from '../helpers/test-server.js';

const ALICE: IssuerClient = { clientId: 'alice', clientSecret: 'alice-secret-0123456789', scopes: ['tools:read'] };
const BOB: IssuerClient = { clientId: 'bob', clientSecret: 'bob-secret-0123456789ab', scopes: ['tools:read'] };
const args = { provider: 'stripe' };
const caps = { elicitation: { form: {}, url: {} } };

describe('examples vault page under OAuth (baton serve, baton dev)', () => {
  let issuer: TestIssuer;
  let close: () => Promise<void>;
  let url: string;
  let tokens: { alice: string; bob: string };

  before(async () => {
    issuer = await startIssuer([ALICE, BOB]);
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    url = `${origin}/mcp`;
    // What `baton serve` reads: BATON_AUTH_SERVERS alone, no static tokens.
    const config = configFromEnvironment({ BATON_AUTH_SERVERS: issuer.issuer, BATON_PUBLIC_URL: origin });
    const vault = createMemoryVault();
    const baton = createServer({
      keyRing: config.keyRing,
      logger: silentLogger,
      tools: exampleTools({ publicUrl: origin, vault }),
      ...examplesVaultPage(config, vault),
    });
    const { server } = await baton.listen(port, '127.0.0.1');
    close = async () => {
      await closeServer(server);
      await baton.close();
    };
    tokens = {
      alice: (await issuer.token(ALICE, url)).accessToken,
      bob: (await issuer.token(BOB, url)).accessToken,
    };
  });
  after(async () => {
    await close?.();
    await issuer?.close();
  });

  const call = (token: string, round: Record<string, unknown> = {}) =>
    callTool(url, 'connect-payments', args, round, {
      capabilities: caps,
      headers: { authorization: `Bearer ${token}` },
    });
  const submit = (link: string, fields: Record<string, string>) =>
    fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

  it("takes the key from the flow's own user (the same access token), and refuses another user and no one", async () => {
    const r1 = (await call(tokens.alice)).body.result;
    expect(r1.resultType).to.equal('input_required');
    const link = r1.inputRequests.link.params.url as string;

    // The page asks for the token: the server authenticates with tokens.
    expect(await (await fetch(link)).text()).to.include('name="access_token"');
    expect((await submit(link, { secret: 'sk_bob_secret_9999', access_token: tokens.bob })).status).to.equal(403);
    expect((await submit(link, { secret: 'sk_anon_secret_9999' })).status).to.equal(401);
    expect((await submit(link, { secret: 'sk_alice_secret_4242', access_token: tokens.alice })).status).to.equal(200);

    const r2 = (
      await call(tokens.alice, { requestState: r1.requestState, inputResponses: { link: { action: 'accept' } } })
    ).body.result;
    expect(r2.resultType).to.equal('complete');
    expect(r2.content[0].text).to.include('4242');
  });
});
