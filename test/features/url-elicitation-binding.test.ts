import { expect } from 'chai';
import { staticBearerTokens } from '../../server/http/index.js';
import { callTool } from '../helpers/mcp-http.js';
import { startTestServer, testKeyRing, type RunningServer } from '../helpers/test-server.js';
import { openPageReference } from '../../server/engine/index.js';

const ALICE = 'alice-token-0123456789';
const BOB = 'bob-token-0123456789abc';
const args = { provider: 'stripe' };
const caps = { elicitation: { form: {}, url: {} } };

/**
 * The spec's phishing attack on URL elicitation (client/elicitation, "Phishing"): Alice starts a
 * flow and forwards its link to Bob, who fills it in believing it is his. The page must refuse
 * anyone but the principal who started the flow, and store nothing.
 */
describe('URL elicitation bound to its user (connect-payments vault page)', () => {
  let server: RunningServer;
  const keyRing = testKeyRing();

  before(async () => {
    const tokens = new Map([
      [ALICE, 'alice'],
      [BOB, 'bob'],
    ]);
    server = await startTestServer({ keyRing, authenticate: staticBearerTokens(tokens) });
  });
  after(() => server.close());

  const call = (token: string, round: Record<string, unknown> = {}) =>
    callTool(server.url, 'connect-payments', args, round, {
      capabilities: caps,
      headers: { authorization: `Bearer ${token}` },
    });
  const submit = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });

  it("refuses another principal's submission and stores nothing; the flow's own user completes it", async () => {
    const r1 = (await call(ALICE)).body.result;
    const url = r1.inputRequests.link.params.url as string;
    expect(url).to.match(/\/vault\/p1\./);

    // Bob, with a valid token of his own, opens Alice's link: the page shows, but refuses his key.
    expect((await fetch(url)).status).to.equal(200);
    const forwarded = await submit(url, { secret: 'sk_bob_secret_9999' }, { authorization: `Bearer ${BOB}` });
    expect(forwarded.status).to.equal(403);
    const viaForm = await submit(url, { secret: 'sk_bob_secret_9999', access_token: BOB });
    expect(viaForm.status).to.equal(403);
    // Nobody signed in: refused too.
    expect((await submit(url, { secret: 'sk_anon_secret_9999' })).status).to.equal(401);

    // Nothing reached Alice's flow: it asks again.
    const r2 = (await call(ALICE, { requestState: r1.requestState, inputResponses: { link: { action: 'accept' } } }))
      .body.result;
    expect(r2.resultType).to.equal('input_required');

    // Alice herself (her token in the form, RFC 6750 section 2.2) stores the key; her flow completes.
    expect((await submit(url, { secret: 'sk_alice_secret_4242', access_token: ALICE })).status).to.equal(200);
    const r3 = (await call(ALICE, { requestState: r2.requestState, inputResponses: { link: { action: 'accept' } } }))
      .body.result;
    expect(r3.resultType).to.equal('complete');
    expect(r3.content[0].text).to.include('4242');

    // The flow has moved past the page: the same link, even from Alice, stores nothing more.
    const again = await submit(url, { secret: 'sk_alice_replaced_7777', access_token: ALICE });
    expect(again.status).to.equal(410);
    const connection = openPageReference(url.split('/vault/')[1], keyRing)!.subject;
    expect(await server.vault.lookup(connection)).to.deep.equal({ last4: '4242' });
  });

  it('refuses a link whose reference was altered or forged', async () => {
    const r1 = (await call(ALICE)).body.result;
    const url = r1.inputRequests.link.params.url as string;
    const altered = url.slice(0, -2) + (url.endsWith('A') ? 'BB' : 'AA');
    expect((await fetch(altered)).status).to.equal(404);
    expect((await submit(altered, { secret: 'sk_alice_secret_4242', access_token: ALICE })).status).to.equal(404);
    const forged = `${server.origin}/vault/00000000-0000-4000-8000-000000000001`;
    expect((await submit(forged, { secret: 'sk_alice_secret_4242', access_token: ALICE })).status).to.equal(404);
  });
});
