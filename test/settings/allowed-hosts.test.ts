import { expect } from 'chai';
import { configFromEnvironment } from '../../server/settings/environment-config.js';
import { openHostWarning, securityOptions } from '../../server/settings/security-options.js';
import { postFrom } from '../helpers/from-address.js';
import { requestMeta } from '../helpers/mcp-http.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

const CALL = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'release', arguments: { service: 'api', version: '1' }, _meta: requestMeta({ elicitation: {} }) },
};
const REBOUND = { host: 'evil.example', origin: 'http://evil.example' };

/**
 * Issue 13, finding 4: bound off loopback (HOST=0.0.0.0), a rebound name with a matching Origin
 * reached the endpoint. The server listens on 127.0.0.1 here; `host` is what it was told it binds.
 */
describe('Host and Origin allow-lists from the environment', () => {
  let server: RunningServer | undefined;
  afterEach(() => server?.close());

  async function serve(env: Record<string, string>) {
    const config = configFromEnvironment({ HOST: '0.0.0.0', ...env });
    const { originPolicy, connectionLimits } = securityOptions(config);
    server = await startTestServer({
      host: config.host,
      ...(originPolicy ? { originPolicy } : {}),
      ...(connectionLimits ? { connectionLimits } : {}),
    });
    return server;
  }

  it('refuses a Host outside BATON_ALLOWED_HOSTS, even with a matching Origin', async () => {
    const { url } = await serve({ BATON_ALLOWED_HOSTS: 'mcp.example.com' });
    expect((await postFrom('127.0.0.1', url, CALL, REBOUND)).status).to.equal(403);
    const allowed = await postFrom('127.0.0.1', url, CALL, { host: 'mcp.example.com:443' });
    expect(allowed.status).to.equal(200);
  });

  it('lets an origin in BATON_ALLOWED_ORIGINS call a host in the list, and no other origin', async () => {
    const { url } = await serve({
      BATON_ALLOWED_HOSTS: 'mcp.example.com',
      BATON_ALLOWED_ORIGINS: 'https://app.example.com',
    });
    const host = 'mcp.example.com';
    expect((await postFrom('127.0.0.1', url, CALL, { host, origin: 'https://app.example.com' })).status).to.equal(200);
    expect((await postFrom('127.0.0.1', url, CALL, { host, origin: 'https://other.example' })).status).to.equal(403);
  });

  it('without a list off loopback, answers any Host, and says so loudly at start-up', async () => {
    const { url } = await serve({});
    expect((await postFrom('127.0.0.1', url, CALL, REBOUND)).status).to.equal(200);
    expect(openHostWarning({ host: '0.0.0.0' })).to.include('BATON_ALLOWED_HOSTS');
    expect(openHostWarning({ host: '0.0.0.0', allowedHosts: ['mcp.example.com'] })).to.equal(undefined);
    expect(openHostWarning({ host: '127.0.0.1' })).to.equal(undefined);
  });
});
