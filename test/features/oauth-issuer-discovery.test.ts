/**
 * Where Baton finds an issuer's keys (server/identity/issuer-metadata.ts): RFC 8414's
 * `/.well-known/oauth-authorization-server` first, then the OpenID Provider configuration, as
 * the authorization spec orders them. A real OpenID Provider (oidc-provider) that serves only
 * `/.well-known/openid-configuration` still has its tokens accepted, through the fall-back.
 */
import { expect } from 'chai';
import { createServer, type BatonServer } from '../../server/create-server.js';
import { defineTool, respondWith, silentLogger } from '../../server/engine/index.js';
import { rpc } from '../helpers/mcp-http.js';
import { startIssuer, type IssuerClient, type TestIssuer } from '../helpers/oidc-issuer.js';
import { freePort } from '../helpers/spawn-baton.js';
import { closeServer, testKeyRing } from '../helpers/test-server.js';

const READER: IssuerClient = { clientId: 'reader', clientSecret: 'reader-secret-0123456789', scopes: ['tools:read'] };
const status = defineTool({
  name: 'status',
  description: 'Tells whether the service is up.',
  inputSchema: { type: 'object' },
  scopes: ['tools:read'],
  machine: respondWith('status', () => 'up'),
});

async function protectedBaton(issuer: string): Promise<{ url: string; close(): Promise<void>; baton: BatonServer }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const baton = createServer({
    keyRing: testKeyRing(),
    logger: silentLogger,
    tools: [status],
    oauth: { issuers: [issuer], resource: url },
  });
  const { server } = await baton.listen(port, '127.0.0.1');
  return {
    url,
    baton,
    close: async () => {
      await closeServer(server);
      await baton.close();
    },
  };
}

const discovery = (paths: string[]) => paths.filter((path) => path.startsWith('/.well-known/'));

describe('issuer metadata discovery', function () {
  this.timeout(20_000);
  const issuers: TestIssuer[] = [];
  const servers: Array<{ close(): Promise<void> }> = [];

  after(async () => {
    for (const server of servers) await server.close();
    for (const issuer of issuers) await issuer.close();
  });

  it('falls back to /.well-known/openid-configuration when RFC 8414 metadata is not served', async () => {
    const issuer = await startIssuer([READER], undefined, { openidConfigurationOnly: true });
    issuers.push(issuer);
    const baton = await protectedBaton(issuer.issuer);
    servers.push(baton);
    const { accessToken } = await issuer.token(READER, baton.url, 'tools:read');
    const response = await rpc(
      baton.url,
      'tools/call',
      { name: 'status', arguments: {} },
      {
        headers: { authorization: `Bearer ${accessToken}` },
      },
    );
    expect(response.status, response.text).to.equal(200);
    expect(response.body.result.content[0].text).to.equal('up');
    expect(discovery(issuer.paths)).to.deep.equal([
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ]);
    expect(issuer.jwksRequests).to.equal(1);
  });

  it('uses RFC 8414 metadata when the issuer serves it, without asking for the OpenID configuration', async () => {
    const issuer = await startIssuer([READER]);
    issuers.push(issuer);
    const baton = await protectedBaton(issuer.issuer);
    servers.push(baton);
    const { accessToken } = await issuer.token(READER, baton.url, 'tools:read');
    const response = await rpc(baton.url, 'tools/list', {}, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(response.status, response.text).to.equal(200);
    expect(discovery(issuer.paths)).to.deep.equal(['/.well-known/oauth-authorization-server']);
  });
});
