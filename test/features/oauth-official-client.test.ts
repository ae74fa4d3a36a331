/**
 * The official TypeScript client (`@modelcontextprotocol/client`) against Baton protected by a
 * real issuer: given only client credentials, it follows the 401 to the RFC 9728 metadata, finds
 * the issuer, gets a token for Baton's canonical URI with the scopes the challenge named, and
 * completes a multi-round tool with it. A client the issuer grants too little gets the 403
 * step-up challenge and gives up with the scopes it lacked.
 */
import { expect } from 'chai';
import { ClientCredentialsProvider, SdkHttpError, type CallToolResult } from '@modelcontextprotocol/client';
import { countingRelease } from '../helpers/counting-release.js';
import { startIssuer, type IssuerClient, type TestIssuer } from '../helpers/oidc-issuer.js';
import { answeringClient, serveScopedRelease } from '../helpers/scoped-release.js';

const DEPLOYER: IssuerClient = {
  clientId: 'deployer',
  clientSecret: 'deployer-secret-0123456789',
  scopes: ['deploy:write'],
};
const VISITOR: IssuerClient = { clientId: 'visitor', clientSecret: 'visitor-secret-0123456789', scopes: [] };

describe('official client with OAuth client credentials against a real issuer', function () {
  this.timeout(30_000);
  const release = countingRelease();
  let issuer: TestIssuer;
  let url: string;
  let stop: () => Promise<void>;

  before(async () => {
    issuer = await startIssuer([DEPLOYER, VISITOR]);
    ({ url, stop } = await serveScopedRelease(release, issuer.issuer));
  });
  after(async () => {
    await stop?.();
    await issuer?.close();
  });

  function clientAs(credentials: IssuerClient) {
    const provider = new ClientCredentialsProvider({
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      expectedIssuer: issuer.issuer,
    });
    return answeringClient('baton-oauth-test', url, provider);
  }

  it('discovers the issuer, gets a token and completes release (window, confirm, deploy)', async () => {
    const { client, transport } = clientAs(DEPLOYER);
    const before = release.counter.deployments;
    try {
      await client.connect(transport);
      const result = (await client.callTool({
        name: 'release',
        arguments: { service: 'billing', version: '2.4.0' },
      })) as CallToolResult;
      expect(result.isError ?? false).to.equal(false);
      expect(result.structuredContent).to.include({ released: true });
      expect(release.counter.deployments).to.equal(before + 1);
    } finally {
      await client.close();
    }
  });

  it('gets 403 insufficient_scope, tries a step-up, and gives up when the issuer grants too little', async () => {
    const { client, transport } = clientAs(VISITOR);
    const deployments = release.counter.deployments;
    try {
      await client.connect(transport);
      let refused: unknown;
      try {
        await client.callTool({ name: 'release', arguments: { service: 'billing', version: '2.4.0' } });
      } catch (error) {
        refused = error;
      }
      // The client re-authorized once with the challenged scope; the issuer still granted none.
      expect(refused, String(refused)).to.be.instanceOf(SdkHttpError);
      expect((refused as Error).message).to.match(/403 insufficient_scope after step-up/);
      expect(release.counter.deployments).to.equal(deployments);
    } finally {
      await client.close();
    }
  });
});
