/**
 * The one authentication step of every route (authenticate-or-challenge.ts), on a stand-in Koa
 * context: a synchronous hook is answered synchronously (the endpoint's fast path awaits nothing),
 * a refusal is written once with its challenge, and anything but a refusal is thrown on.
 */
import { expect } from 'chai';
import type { Context } from 'koa';
import { authenticateOrChallenge } from '../../server/http/authenticate-or-challenge.js';
import { AuthenticationError, type Authenticate } from '../../server/http/index.js';

const CHALLENGE = { resourceMetadataUrl: 'http://127.0.0.1/.well-known/oauth-protected-resource/mcp', scopes: ['a'] };
const ALICE = { id: 'alice', authenticated: true };

function standInContext() {
  const headers: Record<string, string | number> = {};
  const sent: { status?: number; body?: string } = {};
  const res = {
    statusCode: 200,
    setHeader: (name: string, value: string | number) => (headers[name.toLowerCase()] = value),
    end(body: string) {
      sent.status = res.statusCode;
      sent.body = body;
    },
  };
  const ctx = { res, set: (name: string, value: string) => res.setHeader(name, value), respond: true };
  return { ctx: ctx as unknown as Context, headers, sent };
}

describe('authenticateOrChallenge', () => {
  it('answers a synchronous hook synchronously, and an asynchronous one with a promise', async () => {
    const { ctx } = standInContext();
    expect(authenticateOrChallenge(() => ALICE, CHALLENGE)(ctx)).to.equal(ALICE);
    const later = authenticateOrChallenge(async () => ALICE, CHALLENGE)(ctx);
    expect(later).to.be.instanceOf(Promise);
    expect(await later).to.equal(ALICE);
  });

  for (const [kind, hook] of [
    [
      'synchronous',
      () => {
        throw new AuthenticationError('The bearer token is not valid', { error: 'invalid_token' });
      },
    ],
    [
      'asynchronous',
      async () => {
        throw new AuthenticationError('The bearer token is not valid', { error: 'invalid_token' });
      },
    ],
  ] as Array<[string, Authenticate]>) {
    it(`writes the refusal of a ${kind} hook once: 401, the challenge, a -32600 body, and no principal`, async () => {
      const { ctx, headers, sent } = standInContext();
      expect(await authenticateOrChallenge(hook, CHALLENGE)(ctx)).to.equal(undefined);
      expect(sent.status).to.equal(401);
      expect(headers['www-authenticate']).to.equal(
        `Bearer error="invalid_token", scope="a", resource_metadata="${CHALLENGE.resourceMetadataUrl}"`,
      );
      expect(JSON.parse(sent.body!)).to.deep.equal({
        jsonrpc: '2.0',
        error: { code: -32600, message: 'The bearer token is not valid' },
      });
      expect(headers['content-length']).to.equal(Buffer.byteLength(sent.body!));
    });
  }

  it('throws on what is not a refusal, and writes nothing', async () => {
    const { ctx, sent } = standInContext();
    const bug = new Error('a bug in the hook');
    expect(() =>
      authenticateOrChallenge(() => {
        throw bug;
      }, CHALLENGE)(ctx),
    ).to.throw(bug);
    let rejected: unknown;
    await Promise.resolve(authenticateOrChallenge(async () => Promise.reject(bug), CHALLENGE)(ctx)).catch(
      (error: unknown) => (rejected = error),
    );
    expect(rejected).to.equal(bug);
    expect(sent).to.deep.equal({});
  });
});
