import { expect } from 'chai';
import { defineTool } from '../../server/engine/index.js';
import { countingRelease } from '../helpers/counting-release.js';
import { callTool } from '../helpers/mcp-http.js';
import { startTestServer, testKeyRing, type RunningServer } from '../helpers/test-server.js';

/**
 * requestState is attacker-controlled (spec, MRTR "Security"): every forged, altered, expired or
 * misdirected state must be refused with the same opaque -32602, and nothing may run.
 */
describe('requestState security over HTTP', () => {
  let server: RunningServer;
  let now = Date.parse('2026-11-29T12:00:00Z');
  const args = { service: 'billing', version: '2.4.0' };

  const { tool: counted, counter } = countingRelease();
  const twin = defineTool({ ...counted, name: 'release-twin' });

  before(async () => {
    server = await startTestServer({
      tools: [counted, twin],
      clock: () => now,
      stateTtlSeconds: 600,
      authenticate: async (ctx) => ({
        id: ctx.get('x-test-user') || 'anonymous',
        authenticated: Boolean(ctx.get('x-test-user')),
      }),
    });
  });
  after(() => server.close());

  /** Reaches the confirmation round: the next accepted answer would deploy. */
  async function confirmationState(user = 'alice', tool = 'release'): Promise<string> {
    const headers = { 'x-test-user': user };
    const r1 = await callTool(server.url, tool, args, {}, { headers });
    const r2 = await callTool(
      server.url,
      tool,
      args,
      {
        requestState: r1.body.result.requestState,
        inputResponses: { window: { action: 'accept', content: { window: 'now' } } },
      },
      { headers },
    );
    expect(Object.keys(r2.body.result.inputRequests)).to.deep.equal(['confirm']);
    return r2.body.result.requestState;
  }

  async function present(
    requestState: unknown,
    options: { user?: string; tool?: string; args?: Record<string, unknown> } = {},
  ) {
    return callTool(
      server.url,
      options.tool ?? 'release',
      options.args ?? args,
      { requestState, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } },
      { headers: { 'x-test-user': options.user ?? 'alice' }, id: 'attack' },
    );
  }

  function expectRejected(response: { status: number; body: any }) {
    expect(response.status).to.equal(200);
    expect(response.body.id).to.equal('attack');
    expect(response.body.error.code).to.equal(-32602);
    expect(response.body.error.message).to.equal('Invalid params: invalid or expired requestState');
    expect(response.body.error).not.to.have.property('data');
    expect(response.body).not.to.have.property('result');
  }

  beforeEach(() => {
    counter.deployments = 0;
  });

  it('runs the effect for the honest state (the control case)', async () => {
    const response = await present(await confirmationState());
    expect(response.body.result.structuredContent.released).to.equal(true);
    expect(counter.deployments).to.equal(1);
  });

  it('refuses a state with any single character changed, anywhere in the token', async () => {
    const state = await confirmationState();
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const positions = Array.from({ length: state.length }, (_, i) => i).filter(
      (i) => i % 3 === 0 || i > state.length - 40,
    );
    for (const i of positions) {
      const char = state[i]!;
      const replacement = char === '.' ? '_' : alphabet[(alphabet.indexOf(char) + 17) % alphabet.length]!;
      expectRejected(await present(state.slice(0, i) + replacement + state.slice(i + 1)));
    }
    expect(counter.deployments).to.equal(0);
  });

  it('refuses truncated, extended, empty and non-string states', async () => {
    const state = await confirmationState();
    for (const forged of [
      state.slice(0, -1),
      state.slice(0, 40),
      `${state}-TAMPERED`,
      '',
      'b1.test.',
      42,
      {},
      ['x'],
      true,
    ]) {
      expectRejected(await present(forged));
    }
    expect(counter.deployments).to.equal(0);
  });

  it('refuses a state sealed under a key this server does not hold, even with the same kid', async () => {
    const foreign = await startTestServer({ tools: [counted], keyRing: testKeyRing('test') });
    try {
      const r1 = await callTool(foreign.url, 'release', args, {}, { headers: { 'x-test-user': 'alice' } });
      expectRejected(await present(r1.body.result.requestState));
    } finally {
      await foreign.close();
    }
  });

  it('refuses an expired state, and accepts it one second before expiry', async () => {
    const issued = now;
    const state = await confirmationState();
    now = issued + 600_000;
    try {
      expectRejected(await present(state));
    } finally {
      now = issued;
    }
    now = issued + 599_000;
    try {
      const response = await present(state);
      expect(response.body.result.structuredContent.released).to.equal(true);
    } finally {
      now = issued;
    }
    expect(counter.deployments).to.equal(1);
  });

  it('refuses a state presented by another principal, for another tool, or with other arguments', async () => {
    const state = await confirmationState('alice');
    expectRejected(await present(state, { user: 'mallory' }));
    expectRejected(await present(state, { tool: 'release-twin' }));
    expectRejected(await present(state, { args: { service: 'billing', version: '9.9.9' } }));
    expect(counter.deployments).to.equal(0);
  });

  it('keeps the arguments and answers unreadable in the token', async () => {
    const r1 = await callTool(
      server.url,
      'release',
      { service: 'zebra-service', version: '7.7.7' },
      {},
      { headers: { 'x-test-user': 'alice' } },
    );
    const r2 = await callTool(
      server.url,
      'release',
      { service: 'zebra-service', version: '7.7.7' },
      {
        requestState: r1.body.result.requestState,
        inputResponses: { window: { action: 'accept', content: { window: 'weekend' } } },
      },
      { headers: { 'x-test-user': 'alice' } },
    );
    const token: string = r2.body.result.requestState;
    const body = Buffer.from(token.split('.')[2]!, 'base64url');
    const { inflateRawSync } = await import('node:zlib');
    const views = [token, body.toString('latin1')];
    for (let offset = 0; offset < body.length; offset++) {
      try {
        views.push(inflateRawSync(body.subarray(offset)).toString('latin1'));
      } catch {
        // Not a deflate stream at this offset: expected for ciphertext.
      }
    }
    for (const view of views) {
      for (const secret of ['zebra', '7.7.7', 'weekend', 'alice']) expect(view).not.to.include(secret);
    }
  });
});
