import { expect } from 'chai';
import { countingRelease } from '../helpers/counting-release.js';
import { AuthenticationError, staticBearerTokens } from '../../server/http/index.js';
import { callTool, postRaw, rpc, standardHeaders } from '../helpers/mcp-http.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

const args = { service: 'billing', version: '2.4.0' };

const slowRelease = (ms: number) => countingRelease(ms).tool;

describe('authentication', () => {
  let server: RunningServer;
  const tokens = new Map([
    ['alice-token-0123456789', 'alice'],
    ['bob-token-0123456789ab', 'bob'],
  ]);
  const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

  before(async () => {
    server = await startTestServer({
      authenticate: staticBearerTokens(tokens),
      protectedResource: { resource: 'http://127.0.0.1/mcp', authorizationServers: ['https://auth.example.com'] },
    });
  });
  after(() => server.close());

  it('answers 401 with a challenge naming the protected-resource metadata when no token is sent', async () => {
    const response = await rpc(server.url, 'tools/list');
    expect(response.status).to.equal(401);
    expect(response.headers.get('www-authenticate')).to.equal(
      'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp"',
    );
    expect(response.body.error.code).to.equal(-32600);
  });

  it('answers 401 invalid_token for an unknown token', async () => {
    const response = await rpc(server.url, 'tools/list', {}, as('mallory-token-000000000'));
    expect(response.status).to.equal(401);
    expect(response.headers.get('www-authenticate')).to.match(/^Bearer error="invalid_token", resource_metadata=/);
  });

  it('serves RFC 9728 metadata at both well-known paths', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await fetch(`${server.origin}${path}`);
      expect(response.status).to.equal(200);
      const document = await response.json();
      expect(document.resource).to.equal('http://127.0.0.1/mcp');
      expect(document.authorization_servers).to.deep.equal(['https://auth.example.com']);
      expect(document.bearer_methods_supported).to.deep.equal(['header']);
    }
  });

  it('serves an authenticated caller, with private caching hints', async () => {
    const response = await rpc(server.url, 'tools/list', {}, as('alice-token-0123456789'));
    expect(response.status).to.equal(200);
    expect(response.body.result.cacheScope).to.equal('private');
  });

  it('refuses a state issued to one principal when another presents it', async () => {
    const r1 = await callTool(server.url, 'release', args, {}, as('alice-token-0123456789'));
    const stolen = await callTool(
      server.url,
      'release',
      args,
      {
        requestState: r1.body.result.requestState,
        inputResponses: { window: { action: 'accept', content: { window: 'now' } } },
      },
      as('bob-token-0123456789ab'),
    );
    expect(stolen.body.error.code).to.equal(-32602);
    expect(stolen.body.error.message).to.equal('Invalid params: invalid or expired requestState');
  });
});

describe('an auth hook that refuses for a missing scope', () => {
  it('answers 403 with error="insufficient_scope" and every scope needed', async () => {
    const server = await startTestServer({
      authenticate: async () => {
        throw new AuthenticationError('Missing scope', { error: 'insufficient_scope', scope: 'tools:call tools:list' });
      },
      protectedResource: { resource: 'http://127.0.0.1/mcp', authorizationServers: ['https://auth.example.com'] },
    });
    try {
      const response = await rpc(server.url, 'tools/list');
      expect(response.status).to.equal(403);
      expect(response.headers.get('www-authenticate')).to.equal(
        'Bearer error="insufficient_scope", scope="tools:call tools:list", ' +
          'resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp"',
      );
    } finally {
      await server.close();
    }
  });
});

describe('limits', () => {
  it('refuses a body over maxBodyBytes with 413 and the limit in the message', async () => {
    const server = await startTestServer({ maxBodyBytes: 2048 });
    try {
      const message = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(4096) } };
      const response = await postRaw(server.url, JSON.stringify(message), standardHeaders(message));
      expect(response.status).to.equal(413);
      expect(response.body.error.message).to.include('2048');
    } finally {
      await server.close();
    }
  });

  it('answers 503 with Retry-After past maxConcurrentRequests', async () => {
    const server = await startTestServer({ tools: [slowRelease(300)], maxConcurrentRequests: 1 });
    try {
      const r1 = await callTool(server.url, 'release', args);
      const r2 = await callTool(server.url, 'release', args, {
        requestState: r1.body.result.requestState,
        inputResponses: { window: { action: 'accept', content: { window: 'now' } } },
      });
      const confirm = callTool(server.url, 'release', args, {
        requestState: r2.body.result.requestState,
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      });
      // Polled while the confirmation holds the only slot: no pause that a slow run could outlast.
      let confirmed = false;
      void confirm.then(() => (confirmed = true));
      let busy = await rpc(server.url, 'tools/list');
      while (busy.status !== 503 && !confirmed) busy = await rpc(server.url, 'tools/list');
      expect(busy.status).to.equal(503);
      expect(busy.headers.get('retry-after')).to.equal('1');
      expect(busy.body.error.message).to.include('1 concurrent');
      // A limit, not a bug: -31000 (LimitExceeded) with the limit named; -32603 is only for bugs.
      expect(busy.body.error.code).to.equal(-31000);
      expect(busy.body.error.data).to.deep.equal({ reason: 'concurrent_requests', limit: 1 });
      expect((await confirm).body.result.structuredContent.released).to.equal(true);
    } finally {
      await server.close();
    }
  });

  it('ends a round that runs past timeBudgetMs with a tool error naming the budget', async () => {
    const server = await startTestServer({ tools: [slowRelease(2000)], timeBudgetMs: 100 });
    try {
      const r1 = await callTool(server.url, 'release', args);
      const r2 = await callTool(server.url, 'release', args, {
        requestState: r1.body.result.requestState,
        inputResponses: { window: { action: 'accept', content: { window: 'now' } } },
      });
      const r3 = await callTool(server.url, 'release', args, {
        requestState: r2.body.result.requestState,
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      });
      expect(r3.body.result.isError).to.equal(true);
      expect(r3.body.result.content[0].text).to.include('100 ms');
    } finally {
      await server.close();
    }
  });

  it('ends a flow that keeps asking past maxRounds with a tool error', async () => {
    const server = await startTestServer({ maxRounds: 2 });
    try {
      let result = (await callTool(server.url, 'release', args)).body.result;
      for (let i = 0; i < 3 && result.resultType === 'input_required'; i++) {
        const answer = { window: { action: 'accept', content: { window: 'never' } } };
        result = (
          await callTool(server.url, 'release', args, { requestState: result.requestState, inputResponses: answer })
        ).body.result;
      }
      expect(result.isError).to.equal(true);
      expect(result.content[0].text).to.include('2 times');
    } finally {
      await server.close();
    }
  });

  it('ends a round whose sealed state would pass maxStateLength with a tool error', async () => {
    const server = await startTestServer({ maxStateLength: 64 });
    try {
      const response = await callTool(server.url, 'release', args);
      expect(response.body.result.isError).to.equal(true);
      expect(response.body.result.content[0].text).to.include('64 limit');
    } finally {
      await server.close();
    }
  });
});
