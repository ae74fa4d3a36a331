/**
 * Scopes are checked on every round, not only the first: a `requestState` proves which flow a
 * retry continues and for whom, never that the caller still holds the tool's scopes. The realistic
 * case: the same principal (`iss|sub`) whose token is re-issued with fewer scopes between rounds
 * (a revoked grant, a narrower token) presents a valid state it obtained with the broader token.
 */
import { expect } from 'chai';
import { createMcpService, type McpService } from '../../server/create-mcp-service.js';
import { Cancellation, defineTool, silentLogger } from '../../server/engine/index.js';
import type { Dispatched, Principal } from '../../server/protocol/index.js';
import { countingRelease } from '../helpers/counting-release.js';
import { requestMeta } from '../helpers/mcp-http.js';
import { testKeyRing } from '../helpers/test-server.js';

const SUBJECT = 'https://issuer.example|alice';
const token = (scopes: string[]): Principal => ({ id: SUBJECT, authenticated: true, scopes });
const args = { service: 'billing', version: '2.4.0' };
const windowAnswer = { window: { action: 'accept', content: { window: 'now' } } };
const confirmAnswer = { confirm: { action: 'accept', content: { confirm: true } } };

describe('scopes on every round of a flow (dispatcher)', () => {
  const release = countingRelease();
  let service: McpService;
  let nextId = 1;

  before(() => {
    service = createMcpService({
      tools: [defineTool({ ...release.tool, scopes: ['deploy:write'] })],
      keyRing: testKeyRing(),
      logger: silentLogger,
    });
  });
  after(() => service.close());
  beforeEach(() => {
    release.counter.deployments = 0;
  });

  const call = (principal: Principal, round: Record<string, unknown> = {}): Promise<Dispatched> =>
    Promise.resolve(
      service.dispatcher.dispatch(
        {
          jsonrpc: '2.0',
          id: nextId++,
          method: 'tools/call',
          params: { name: 'release', arguments: args, ...round, _meta: requestMeta({ elicitation: {} }) },
        },
        { principal, cancellation: new Cancellation() },
      ),
    );
  const resultOf = (outcome: Dispatched) => {
    if (outcome.type !== 'response' || !('result' in outcome.response)) expect.fail(JSON.stringify(outcome));
    return outcome.response.result as Record<string, any>;
  };
  const expectRefused = (outcome: Dispatched) => {
    if (outcome.type !== 'response' || !('error' in outcome.response)) {
      expect.fail(`expected insufficient_scope, got ${JSON.stringify(outcome).slice(0, 160)}`);
    }
    expect(outcome.httpStatus).to.equal(403);
    expect(outcome.insufficientScope).to.deep.equal(['deploy:write']);
    expect((outcome.response.error as { data?: unknown }).data).to.deep.equal({
      reason: 'insufficient_scope',
      scopes: ['deploy:write'],
    });
  };

  it('refuses the second round when the token lost the scope, though the state is valid', async () => {
    const first = resultOf(await call(token(['deploy:write'])));
    expect(first.resultType).to.equal('input_required');
    const retry = { requestState: first.requestState, inputResponses: windowAnswer };
    expectRefused(await call(token([]), retry));
    expectRefused(await call(token(['deploy:read']), retry));
    // The state itself is fine: with the scope back, the same retry goes on.
    expect(Object.keys(resultOf(await call(token(['deploy:write']), retry)).inputRequests)).to.deep.equal(['confirm']);
  });

  it('refuses the effect round (single-use confirm) on a narrowed token: nothing deploys', async () => {
    const first = resultOf(await call(token(['deploy:write'])));
    const second = resultOf(
      await call(token(['deploy:write']), { requestState: first.requestState, inputResponses: windowAnswer }),
    );
    const confirm = { requestState: second.requestState, inputResponses: confirmAnswer };
    expectRefused(await call(token(['tools:read']), confirm));
    expect(release.counter.deployments).to.equal(0);
    // Refused before the round opened its state: not consumed, the holder of the scope deploys once.
    expect(resultOf(await call(token(['deploy:write']), confirm)).resultType).to.equal('complete');
    expect(release.counter.deployments).to.equal(1);
  });
});
