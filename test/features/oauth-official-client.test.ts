/**
 * The official TypeScript client (`@modelcontextprotocol/client`) against Baton protected by a
 * real issuer: given only client credentials, it follows the 401 to the RFC 9728 metadata, finds
 * the issuer, gets a token for Baton's canonical URI with the scopes the challenge named, and
 * completes a multi-round tool with it. A client the issuer grants too little gets the 403
 * step-up challenge and gives up with the scopes it lacked.
 */
import { expect } from 'chai';
import {
  Client,
  ClientCredentialsProvider,
  SdkHttpError,
  StreamableHTTPClientTransport,
  type CallToolResult,
} from '@modelcontextprotocol/client';
import { createServer, type BatonServer } from '../../server/create-server.js';
import { defineTool, silentLogger } from '../../server/engine/index.js';
import { PROTOCOL_VERSION } from '../../server/protocol/index.js';
import { countingRelease } from '../helpers/counting-release.js';
import { startIssuer, type IssuerClient, type TestIssuer } from '../helpers/oidc-issuer.js';
import { freePort } from '../helpers/spawn-baton.js';
import { closeServer, testKeyRing } from '../helpers/test-server.js';

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
  let baton: BatonServer;
  let url: string;
  let stop: () => Promise<void>;

  before(async () => {
    issuer = await startIssuer([DEPLOYER, VISITOR]);
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    baton = createServer({
      keyRing: testKeyRing(),
      logger: silentLogger,
      tools: [defineTool({ ...release.tool, scopes: ['deploy:write'] })],
      oauth: { issuers: [issuer.issuer], resource: url },
    });
    const { server } = await baton.listen(port, '127.0.0.1');
    stop = async () => {
      await closeServer(server);
      await baton.close();
    };
  });
  after(async () => {
    await stop?.();
    await issuer?.close();
  });

  function clientAs(credentials: IssuerClient) {
    const client = new Client(
      { name: 'baton-oauth-test', version: '1.0.0' },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: PROTOCOL_VERSION } },
        inputRequired: { autoFulfill: true, maxRounds: 5 },
      },
    );
    client.setRequestHandler('elicitation/create', async ({ params }) => {
      const fields = params.mode === 'url' ? [] : Object.keys(params.requestedSchema.properties);
      const content: Record<string, string | boolean> = fields.includes('window')
        ? { window: 'tonight' }
        : { confirm: true };
      return { action: 'accept' as const, content };
    });
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      authProvider: new ClientCredentialsProvider({
        clientId: credentials.clientId,
        clientSecret: credentials.clientSecret,
        expectedIssuer: issuer.issuer,
      }),
    });
    return { client, transport };
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
