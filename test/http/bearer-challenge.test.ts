/**
 * The WWW-Authenticate challenge on every route of both eras (bearer-challenge.ts): a 401 names
 * the scopes to ask for and the protected-resource metadata, on POST and on the 2025-11-25 GET
 * and DELETE alike; a call that lacks scopes is 403 with every scope it needs, in a 2025-11-25
 * session too. The auth hook here hands out principals with scopes without any JWT.
 */
import { expect } from 'chai';
import { AuthenticationError, bearerChallenge, type Authenticate } from '../../server/http/index.js';
import { defineTool } from '../../server/engine/index.js';
import { countingRelease } from '../helpers/counting-release.js';
import { postRaw, rpc } from '../helpers/mcp-http.js';
import { LEGACY_VERSION } from '../helpers/legacy-http.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

const RESOURCE = 'http://127.0.0.1/mcp';
const METADATA = 'http://127.0.0.1/.well-known/oauth-protected-resource/mcp';

/** `reader` holds tools:read only; `deployer` holds deploy:write too; anything else is refused. */
const authenticate: Authenticate = (ctx) => {
  const token = ctx.get('authorization').replace(/^Bearer /, '');
  if (token === 'reader') return { id: 'issuer|reader', authenticated: true, scopes: ['tools:read'] };
  if (token === 'deployer')
    return { id: 'issuer|deployer', authenticated: true, scopes: ['tools:read', 'deploy:write'] };
  if (token === '') throw new AuthenticationError('Authorization required: send a bearer token');
  throw new AuthenticationError('The access token is not valid', { error: 'invalid_token' });
};

describe('bearer challenges on every route, both eras', () => {
  let server: RunningServer;
  const as = (token: string) => ({ authorization: `Bearer ${token}` });

  before(async () => {
    server = await startTestServer({
      authenticate,
      protectedResource: { resource: RESOURCE, authorizationServers: ['https://auth.example.com'] },
      tools: [defineTool({ ...countingRelease().tool, scopes: ['deploy:write'] })],
    });
  });
  after(() => server.close());

  async function openSession(token: string): Promise<string> {
    const response = await postRaw(
      server.url,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: LEGACY_VERSION,
          capabilities: { elicitation: {} },
          clientInfo: { name: 't', version: '1' },
        },
      }),
      { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...as(token) },
    );
    expect(response.status).to.equal(200);
    return response.headers.get('mcp-session-id')!;
  }

  it('names scope and resource_metadata in the 401 of a 2026-07-28 POST', async () => {
    const response = await rpc(server.url, 'tools/list');
    expect(response.status).to.equal(401);
    expect(response.headers.get('www-authenticate')).to.equal(
      `Bearer scope="deploy:write", resource_metadata="${METADATA}"`,
    );
  });

  it('names them in the 401 of a 2025-11-25 GET and DELETE too', async () => {
    const sessionId = await openSession('deployer');
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(server.url, {
        method,
        headers: { 'mcp-session-id': sessionId, accept: 'text/event-stream', ...as('stolen') },
      });
      expect(response.status, method).to.equal(401);
      expect(response.headers.get('www-authenticate'), method).to.equal(
        `Bearer error="invalid_token", scope="deploy:write", resource_metadata="${METADATA}"`,
      );
      await response.body?.cancel();
    }
  });

  it('refuses a 2025-11-25 GET and DELETE exactly as a 2026-07-28 POST: status, challenge, body', async () => {
    const sessionId = await openSession('deployer');
    for (const token of [undefined, 'stolen']) {
      const credentials: Record<string, string> = token ? as(token) : {};
      const modern = await rpc(server.url, 'tools/list', {}, { headers: credentials });
      expect(modern.status, `POST, token ${token}`).to.equal(401);
      const challenge = modern.headers.get('www-authenticate');
      expect(challenge).to.include(`resource_metadata="${METADATA}"`);
      for (const method of ['GET', 'DELETE']) {
        const response = await fetch(server.url, {
          method,
          headers: { 'mcp-session-id': sessionId, accept: 'text/event-stream', ...credentials },
        });
        const label = `${method}, token ${token}`;
        expect(response.status, label).to.equal(401);
        expect(response.headers.get('www-authenticate'), label).to.equal(challenge);
        expect(response.headers.get('content-type'), label).to.equal(modern.headers.get('content-type'));
        expect(await response.json(), label).to.deep.equal(modern.body);
      }
    }
  });

  it('answers 403 with every scope a call needs in a 2025-11-25 session', async () => {
    const sessionId = await openSession('reader');
    const response = await postRaw(
      server.url,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'release', arguments: { service: 'billing', version: '2.4.0' } },
      }),
      {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': LEGACY_VERSION,
        ...as('reader'),
      },
    );
    expect(response.status).to.equal(403);
    expect(response.headers.get('www-authenticate')).to.equal(
      `Bearer error="insufficient_scope", scope="deploy:write", resource_metadata="${METADATA}"`,
    );
    expect(response.body.error.data).to.deep.equal({ reason: 'insufficient_scope', scopes: ['deploy:write'] });
  });

  it('answers 403 on a 2026-07-28 call, and lists only what the scopes cover', async () => {
    const refused = await rpc(
      server.url,
      'tools/call',
      { name: 'release', arguments: { service: 'billing', version: '2.4.0' } },
      { headers: as('reader') },
    );
    expect(refused.status).to.equal(403);
    expect(refused.headers.get('www-authenticate')).to.equal(
      `Bearer error="insufficient_scope", scope="deploy:write", resource_metadata="${METADATA}"`,
    );
    const listed = await rpc(server.url, 'tools/list', {}, { headers: as('reader') });
    expect(listed.body.result.tools).to.deep.equal([]);
    expect(listed.body.result.cacheScope).to.equal('private');
  });
});

describe('bearerChallenge', () => {
  it('names no error for a request without credentials (RFC 6750 section 3.1)', () => {
    expect(bearerChallenge({}, { scopes: ['a', 'b'], resourceMetadataUrl: METADATA })).to.equal(
      `Bearer scope="a b", resource_metadata="${METADATA}"`,
    );
    expect(bearerChallenge({})).to.equal('Bearer');
  });

  it('names the operation scopes, not the supported ones, in a 403', () => {
    expect(bearerChallenge({ error: 'insufficient_scope', scope: 'x' }, { scopes: ['a', 'b'] })).to.equal(
      'Bearer error="insufficient_scope", scope="x"',
    );
  });
});
