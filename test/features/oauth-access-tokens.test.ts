/**
 * Baton as an OAuth resource server against real issuers: `oidc-provider` instances on loopback
 * issue RFC 9068 access tokens by the client credentials grant (test/helpers/oidc-issuer.ts).
 * Every refusal is checked for its status and its challenge; tokens a real issuer would never
 * issue (expired, not yet valid, `alg: none`, HMAC keyed with the public key, an unknown `kid`)
 * are signed here with the issuer's own key, so only the one flaw differs.
 */
import { createPublicKey, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { SignJWT, base64url, type JWTPayload } from 'jose';
import { createServer, type BatonServer } from '../../server/create-server.js';
import { defineTool, respondWith, silentLogger } from '../../server/engine/index.js';
import { countingRelease } from '../helpers/counting-release.js';
import { callTool, rpc, type RawResponse } from '../helpers/mcp-http.js';
import { numberTask } from '../helpers/number-task.js';
import {
  signingKey,
  startIssuer,
  type IssuerClient,
  type SigningKey,
  type TestIssuer,
} from '../helpers/oidc-issuer.js';
import { freePort } from '../helpers/spawn-baton.js';
import { TASK_CLIENT } from '../helpers/tasks.js';
import { closeServer, testKeyRing } from '../helpers/test-server.js';

const DEPLOYER: IssuerClient = {
  clientId: 'deployer',
  clientSecret: 'deployer-secret-0123456789',
  scopes: ['tools:read', 'deploy:write'],
};
const READER: IssuerClient = { clientId: 'reader', clientSecret: 'reader-secret-0123456789', scopes: ['tools:read'] };
const args = { service: 'billing', version: '2.4.0' };
const windowAnswer = { window: { action: 'accept', content: { window: 'now' } } };

const release = countingRelease();
const scopedRelease = defineTool({ ...release.tool, scopes: ['deploy:write'] });
const status = defineTool({
  name: 'status',
  description: 'Tells whether the service is up.',
  inputSchema: { type: 'object' },
  scopes: ['tools:read'],
  machine: respondWith('status', () => 'up'),
});
const hello = defineTool({
  name: 'hello',
  description: 'Says hello to anyone.',
  inputSchema: { type: 'object' },
  machine: respondWith('hello', () => 'hello'),
});
const scopedTask = defineTool({ ...numberTask, scopes: ['deploy:write'] });

interface OAuthServer {
  url: string;
  origin: string;
  baton: BatonServer;
  /** Why each refused token was refused (the `access_token_rejected` log lines). */
  rejections: string[];
  close(): Promise<void>;
}

/** A Baton server whose canonical URI is its real URL (clients check the metadata's `resource`). */
async function startOAuthServer(issuers: string[], options: { cooldownMs?: number } = {}): Promise<OAuthServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const rejections: string[] = [];
  const baton = createServer({
    keyRing: testKeyRing(),
    logger: {
      ...silentLogger,
      info: (event, fields) => {
        if (event === 'access_token_rejected') rejections.push(String(fields?.reason));
      },
    },
    tools: [scopedRelease, status, hello, scopedTask],
    // Every refusal logged (the default writes one line per reason per 10 s): the tests read them.
    oauth: { issuers, resource: url, keyRefreshCooldownMs: options.cooldownMs ?? 200, rejectionLogIntervalMs: 0 },
  });
  const { server } = await baton.listen(port, '127.0.0.1');
  return {
    url,
    origin: `http://127.0.0.1:${port}`,
    baton,
    rejections,
    close: async () => {
      await closeServer(server);
      await baton.close();
    },
  };
}

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe('OAuth access tokens from a real OpenID Provider (oidc-provider)', function () {
  // Each issuer and server starts on loopback; under load the first token request takes a moment.
  this.timeout(20_000);
  let issuer: TestIssuer;
  let other: TestIssuer;
  let server: OAuthServer;
  let metadataUrl: string;
  let challenge401: string;

  /** A token signed with the issuer's current key, as the issuer would make it, with `claims` changed. */
  async function forged(claims: JWTPayload = {}, header: Record<string, unknown> = {}, key: SigningKey = issuer.key) {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      iss: issuer.issuer,
      sub: 'deployer',
      aud: server.url,
      client_id: 'deployer',
      scope: 'tools:read deploy:write',
      jti: randomUUID(),
      iat: now,
      exp: now + 300,
      ...claims,
    })
      .setProtectedHeader({ alg: key.alg, typ: 'at+jwt', kid: key.kid, ...header })
      .sign(key.privateKey);
  }

  function expectInvalidToken(response: RawResponse, reason: string) {
    expect(server.rejections.at(-1)).to.equal(reason);
    expect(response.status, response.text).to.equal(401);
    expect(response.headers.get('www-authenticate')).to.equal(
      `Bearer error="invalid_token", scope="deploy:write tools:read", resource_metadata="${metadataUrl}"`,
    );
    expect(response.body.error.code).to.equal(-32600);
    // Opaque: nothing says which check failed.
    expect(response.body.error.message).to.equal('The access token is not valid');
  }

  before(async () => {
    issuer = await startIssuer([DEPLOYER, READER]);
    other = await startIssuer([DEPLOYER]);
    server = await startOAuthServer([issuer.issuer]);
    metadataUrl = `${server.origin}/.well-known/oauth-protected-resource/mcp`;
    challenge401 = `Bearer scope="deploy:write tools:read", resource_metadata="${metadataUrl}"`;
  });
  after(async () => {
    await server?.close();
    await issuer?.close();
    await other?.close();
  });

  describe('the protected-resource metadata and the 401', () => {
    it('lists the issuer and every scope of the catalogue (RFC 9728)', async () => {
      const document = await (await fetch(metadataUrl)).json();
      expect(document).to.include({ resource: server.url });
      expect(document.authorization_servers).to.deep.equal([issuer.issuer]);
      expect(document.scopes_supported).to.deep.equal(['deploy:write', 'tools:read']);
    });

    it('challenges a request without a token with the scopes to ask for and the metadata URL', async () => {
      const response = await rpc(server.url, 'tools/list');
      expect(response.status).to.equal(401);
      expect(response.headers.get('www-authenticate')).to.equal(challenge401);
    });
  });

  describe('a valid token', () => {
    it('runs a multi-round tool to the end for its principal', async () => {
      const { accessToken } = await issuer.token(DEPLOYER, server.url, 'deploy:write tools:read');
      const before = release.counter.deployments;
      const r1 = await callTool(server.url, 'release', args, {}, bearer(accessToken));
      expect(r1.body.result.resultType).to.equal('input_required');
      const r2 = await callTool(
        server.url,
        'release',
        args,
        { requestState: r1.body.result.requestState, inputResponses: windowAnswer },
        bearer(accessToken),
      );
      const r3 = await callTool(
        server.url,
        'release',
        args,
        {
          requestState: r2.body.result.requestState,
          inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        },
        bearer(accessToken),
      );
      expect(r3.body.result.structuredContent.released).to.equal(true);
      expect(release.counter.deployments).to.equal(before + 1);
    });

    it('is accepted within the leeway around exp', async () => {
      const now = Math.floor(Date.now() / 1000);
      const response = await rpc(server.url, 'tools/list', {}, bearer(await forged({ exp: now - 10 })));
      expect(response.status).to.equal(200);
    });
  });

  describe('refuses with 401 invalid_token', () => {
    it('a token issued for another resource (wrong audience)', async () => {
      const { accessToken } = await issuer.token(DEPLOYER, 'https://other.example/mcp', 'tools:read');
      expectInvalidToken(await rpc(server.url, 'tools/list', {}, bearer(accessToken)), 'audience');
    });

    it('a token from an issuer that is not configured (wrong issuer)', async () => {
      const { accessToken } = await other.token(DEPLOYER, server.url, 'tools:read');
      expectInvalidToken(await rpc(server.url, 'tools/list', {}, bearer(accessToken)), 'issuer');
    });

    it('an expired token (past the leeway)', async () => {
      const now = Math.floor(Date.now() / 1000);
      expectInvalidToken(
        await rpc(server.url, 'tools/list', {}, bearer(await forged({ iat: now - 600, exp: now - 120 }))),
        'expired',
      );
    });

    it('a token that is not yet valid (nbf past the leeway)', async () => {
      const now = Math.floor(Date.now() / 1000);
      expectInvalidToken(
        await rpc(server.url, 'tools/list', {}, bearer(await forged({ nbf: now + 120 }))),
        'not_yet_valid',
      );
    });

    it('an unsigned token (alg: none)', async () => {
      const now = Math.floor(Date.now() / 1000);
      const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid: issuer.key.kid }));
      const payload = base64url.encode(
        JSON.stringify({ iss: issuer.issuer, sub: 'deployer', aud: server.url, exp: now + 300, iat: now }),
      );
      expectInvalidToken(await rpc(server.url, 'tools/list', {}, bearer(`${header}.${payload}.`)), 'algorithm');
    });

    it('an HS256 token keyed with the issuer public key', async () => {
      const publicPem = createPublicKey({ key: issuer.key.publicJwk as never, format: 'jwk' }).export({
        type: 'spki',
        format: 'pem',
      });
      const now = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({
        iss: issuer.issuer,
        sub: 'deployer',
        aud: server.url,
        scope: 'deploy:write',
        exp: now + 300,
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: issuer.key.kid })
        .sign(new TextEncoder().encode(String(publicPem)));
      expectInvalidToken(await rpc(server.url, 'tools/list', {}, bearer(token)), 'algorithm');
    });

    it('a token of another type (an ID token is not an access token)', async () => {
      expectInvalidToken(
        await rpc(server.url, 'tools/list', {}, bearer(await forged({}, { typ: 'id+jwt' }))),
        'wrong_type',
      );
    });

    it('an at+jwt token without the claims RFC 9068 requires', async () => {
      expectInvalidToken(
        await rpc(server.url, 'tools/list', {}, bearer(await forged({ client_id: undefined }))),
        'claims',
      );
    });
  });

  describe('key rotation at the issuer', () => {
    it('refuses an unknown kid, then accepts it once the issuer publishes it, without a restart', async () => {
      const next = await signingKey('k2');
      const early = await forged({}, {}, next);
      expectInvalidToken(await rpc(server.url, 'tools/list', {}, bearer(early)), 'unknown_key');

      issuer.rotate(next);
      // Past the key-refresh cooldown (200 ms here), an unknown kid fetches the keys again.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await rpc(server.url, 'tools/list', {}, bearer(early))).status).to.equal(200);
      const { accessToken } = await issuer.token(DEPLOYER, server.url, 'tools:read');
      expect((await rpc(server.url, 'tools/list', {}, bearer(accessToken))).status).to.equal(200);
    });

    it('fetches the keys at most once per cooldown however many unknown kids arrive', async () => {
      // A server of its own with a long cooldown, so a slow machine cannot stretch the flood past it.
      const patient = await startOAuthServer([issuer.issuer], { cooldownMs: 60_000 });
      try {
        const { accessToken } = await issuer.token(DEPLOYER, patient.url, 'tools:read');
        expect((await rpc(patient.url, 'tools/list', {}, bearer(accessToken))).status).to.equal(200);
        const before = issuer.jwksRequests;
        const strangers = await Promise.all(
          Array.from({ length: 20 }, async (_, i) =>
            forged({ aud: patient.url }, {}, await signingKey(`stranger-${i}`)),
          ),
        );
        const responses = await Promise.all(
          strangers.map((token) => rpc(patient.url, 'tools/list', {}, bearer(token))),
        );
        for (const response of responses) expect(response.status).to.equal(401);
        expect(patient.rejections).to.deep.equal(Array(20).fill('unknown_key'));
        expect(issuer.jwksRequests - before).to.be.at.most(1);
      } finally {
        await patient.close();
      }
    });
  });

  describe('scopes', () => {
    it('answers 403 insufficient_scope naming every scope the tool needs', async () => {
      const { accessToken, scope } = await issuer.token(READER, server.url, 'tools:read deploy:write');
      expect(scope).to.equal('tools:read');
      const response = await callTool(server.url, 'release', args, {}, bearer(accessToken));
      expect(response.status).to.equal(403);
      expect(response.headers.get('www-authenticate')).to.equal(
        `Bearer error="insufficient_scope", scope="deploy:write", resource_metadata="${metadataUrl}"`,
      );
      expect(response.body.error.code).to.equal(-32600);
      expect(response.body.error.data).to.deep.equal({ reason: 'insufficient_scope', scopes: ['deploy:write'] });
    });

    it('lists only the tools the token may use, as a private result', async () => {
      const reader = await issuer.token(READER, server.url, 'tools:read');
      const listed = await rpc(server.url, 'tools/list', {}, bearer(reader.accessToken));
      expect(listed.body.result.tools.map((tool: { name: string }) => tool.name)).to.deep.equal(['hello', 'status']);
      expect(listed.body.result.cacheScope).to.equal('private');
      const deployer = await issuer.token(DEPLOYER, server.url, 'tools:read deploy:write');
      const all = await rpc(server.url, 'tools/list', {}, bearer(deployer.accessToken));
      expect(all.body.result.tools.map((tool: { name: string }) => tool.name)).to.deep.equal([
        'hello',
        'number-task',
        'release',
        'status',
      ]);
    });
  });
});

describe('the principal is iss + sub', function () {
  this.timeout(20_000);
  let first: TestIssuer;
  let second: TestIssuer;
  let server: OAuthServer;

  before(async () => {
    // Both issuers have a client `deployer`: its tokens carry the same `sub` from each.
    first = await startIssuer([DEPLOYER]);
    second = await startIssuer([DEPLOYER]);
    server = await startOAuthServer([first.issuer, second.issuer]);
  });
  after(async () => {
    await server?.close();
    await first?.close();
    await second?.close();
  });

  it('refuses a sealed state issued to the same sub of another issuer', async () => {
    const mine = await first.token(DEPLOYER, server.url, 'deploy:write');
    const theirs = await second.token(DEPLOYER, server.url, 'deploy:write');
    const r1 = await callTool(server.url, 'release', args, {}, bearer(mine.accessToken));
    const round = { requestState: r1.body.result.requestState, inputResponses: windowAnswer };
    const stolen = await callTool(server.url, 'release', args, round, bearer(theirs.accessToken));
    expect(stolen.body.error.code).to.equal(-32602);
    expect(stolen.body.error.message).to.equal('Invalid params: invalid or expired requestState');
    // The state still works for the principal it was issued to.
    const own = await callTool(server.url, 'release', args, round, bearer(mine.accessToken));
    expect(own.body.result.resultType).to.equal('input_required');
  });

  it('hides a task from the same sub of another issuer', async () => {
    const mine = await first.token(DEPLOYER, server.url, 'deploy:write');
    const theirs = await second.token(DEPLOYER, server.url, 'deploy:write');
    const created = await rpc(
      server.url,
      'tools/call',
      { name: 'number-task', arguments: {} },
      { capabilities: TASK_CLIENT, ...bearer(mine.accessToken) },
    );
    const taskId = created.body.result.taskId as string;
    expect(taskId).to.be.a('string');
    const foreign = await rpc(
      server.url,
      'tasks/get',
      { taskId },
      { capabilities: TASK_CLIENT, ...bearer(theirs.accessToken) },
    );
    expect(foreign.body.error.code).to.equal(-32602);
    expect(foreign.body.error.message).to.equal('Failed to retrieve task: Task not found');
    const own = await rpc(
      server.url,
      'tasks/get',
      { taskId },
      { capabilities: TASK_CLIENT, ...bearer(mine.accessToken) },
    );
    expect(own.body.result.taskId).to.equal(taskId);
  });
});
