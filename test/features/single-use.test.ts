import { expect } from 'chai';
import { FlowEngine, EngineError, RedisReplayGuard } from '../../server/engine/index.js';
import { countingRelease } from '../helpers/counting-release.js';
import { callTool } from '../helpers/mcp-http.js';
import { REDIS, requireBinaries } from '../helpers/required-binary.js';
import { startRedis, type RunningRedis } from '../../bench/redis/index.js';
import { startTestServer, testKeyRing, type RunningServer } from '../helpers/test-server.js';

const args = { service: 'billing', version: '2.4.0' };
const confirmYes = { confirm: { action: 'accept', content: { confirm: true } } };

/** Runs the first round and answers the window: the returned state is the single-use confirmation. */
async function confirmationState(url: string): Promise<string> {
  const r1 = await callTool(url, 'release', args);
  const r2 = await callTool(url, 'release', args, {
    requestState: r1.body.result.requestState,
    inputResponses: { window: { action: 'accept', content: { window: 'now' } } },
  });
  expect(Object.keys(r2.body.result.inputRequests)).to.deep.equal(['confirm']);
  return r2.body.result.requestState;
}

describe('single-use states', () => {
  describe('on one instance (memory guard)', () => {
    let server: RunningServer;
    const { tool, counter } = countingRelease(40);
    before(async () => {
      server = await startTestServer({ tools: [tool] });
    });
    after(() => server.close());
    beforeEach(() => {
      counter.deployments = 0;
    });

    it('answers a second presentation with the first result and never deploys twice', async () => {
      const state = await confirmationState(server.url);
      const first = await callTool(server.url, 'release', args, { requestState: state, inputResponses: confirmYes });
      const second = await callTool(server.url, 'release', args, { requestState: state, inputResponses: confirmYes });
      expect(first.body.result.structuredContent.deploymentId).to.equal('d1');
      expect(second.body.result).to.deep.equal(first.body.result);
      expect(counter.deployments).to.equal(1);
    });

    it('answers a second presentation with the first answer whatever answers it carries', async () => {
      const state = await confirmationState(server.url);
      const first = await callTool(server.url, 'release', args, { requestState: state, inputResponses: confirmYes });
      const declined = { confirm: { action: 'decline' } };
      const second = await callTool(server.url, 'release', args, { requestState: state, inputResponses: declined });
      expect(second.body.result).to.deep.equal(first.body.result);
      expect(counter.deployments).to.equal(1);
    });

    it('runs two concurrent presentations once; the other is told it is in progress', async () => {
      const state = await confirmationState(server.url);
      const responses = await Promise.all(
        [1, 2].map(() => callTool(server.url, 'release', args, { requestState: state, inputResponses: confirmYes })),
      );
      expect(counter.deployments).to.equal(1);
      const results = responses.filter((r) => r.body.result);
      const errors = responses.filter((r) => r.body.error);
      expect(results).to.have.length(1);
      expect(errors).to.have.length(1);
      expect(errors[0]!.body.error.code).to.equal(-32602);
      expect(errors[0]!.body.error.data).to.deep.equal({ reason: 'request_state_in_use' });
    });

    it('gives the claim back when the answers are malformed, so a corrected resend runs', async () => {
      const state = await confirmationState(server.url);
      const bad = await callTool(server.url, 'release', args, {
        requestState: state,
        inputResponses: { confirm: { action: 'perhaps' } },
      });
      expect(bad.body.error.code).to.equal(-32602);
      const good = await callTool(server.url, 'release', args, { requestState: state, inputResponses: confirmYes });
      expect(good.body.result.structuredContent.released).to.equal(true);
      expect(counter.deployments).to.equal(1);
    });

    it('does not guard states that commit nothing (the window question can be resent)', async () => {
      const r1 = await callTool(server.url, 'release', args);
      const answer = { window: { action: 'accept', content: { window: 'now' } } };
      const a = await callTool(server.url, 'release', args, {
        requestState: r1.body.result.requestState,
        inputResponses: answer,
      });
      const b = await callTool(server.url, 'release', args, {
        requestState: r1.body.result.requestState,
        inputResponses: answer,
      });
      expect(Object.keys(a.body.result.inputRequests)).to.deep.equal(['confirm']);
      expect(Object.keys(b.body.result.inputRequests)).to.deep.equal(['confirm']);
    });
  });

  describe('a run that was cancelled', () => {
    it('leaves its state consumed: a resend is refused, not run again', async () => {
      const { tool, counter } = countingRelease(200);
      const engine = new FlowEngine({ keyRing: testKeyRing() });
      const call = { flow: tool, arguments: args, principal: 'p', clientCapabilities: { elicitation: {} } };
      const r1 = await engine.run(call);
      if (r1.kind !== 'input_required') throw new Error('expected a question');
      const r2 = await engine.run({
        ...call,
        requestState: r1.requestState,
        inputResponses: { window: { action: 'accept', content: { window: 'now' } } },
      });
      if (r2.kind !== 'input_required') throw new Error('expected the confirmation');
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const cancelled = await engine.run({
        ...call,
        requestState: r2.requestState,
        inputResponses: confirmYes,
        signal: controller.signal,
      });
      expect(cancelled.kind).to.equal('aborted');
      try {
        await engine.run({ ...call, requestState: r2.requestState, inputResponses: confirmYes });
        expect.fail('a consumed state must be refused');
      } catch (error) {
        expect(error).to.be.instanceOf(EngineError);
        expect((error as EngineError).reason).to.equal('state_consumed');
      }
      expect(counter.deployments).to.equal(1);
    });
  });

  describe('across instances sharing one Redis', function () {
    let redis: RunningRedis;
    let a: RunningServer;
    let b: RunningServer;
    let guards: RedisReplayGuard[] = [];
    const { tool, counter } = countingRelease(60);

    before(async function () {
      requireBinaries(this, REDIS);
      redis = await startRedis();
      const keyRing = testKeyRing('shared');
      guards = [new RedisReplayGuard({ url: redis.url }), new RedisReplayGuard({ url: redis.url })];
      a = await startTestServer({ tools: [tool], keyRing, replayGuard: guards[0]!, instanceId: 'a' });
      b = await startTestServer({ tools: [tool], keyRing, replayGuard: guards[1]!, instanceId: 'b' });
    });
    after(async () => {
      await a?.close();
      await b?.close();
      for (const guard of guards) await guard.close();
      await redis?.stop();
    });
    beforeEach(() => {
      counter.deployments = 0;
    });

    it('runs the effect exactly once when two instances get the same state at once', async () => {
      const state = await confirmationState(a.url);
      const responses = await Promise.all(
        [a, b].map((s) => callTool(s.url, 'release', args, { requestState: state, inputResponses: confirmYes })),
      );
      expect(counter.deployments).to.equal(1);
      expect(responses.filter((r) => r.body.result)).to.have.length(1);
      // Once the first run has finished, either instance answers with its result.
      const later = await callTool(b.url, 'release', args, { requestState: state, inputResponses: confirmYes });
      const winner = responses.find((r) => r.body.result)!;
      expect(later.body.result).to.deep.equal(winner.body.result);
      expect(counter.deployments).to.equal(1);
    });

    it('refuses, as already used, a state whose run died before settling (no retry loop)', async () => {
      // What an instance that crashed mid-round leaves behind: a pending claim past its deadline.
      const guard = new RedisReplayGuard({ url: redis.url });
      try {
        expect(await guard.claim('crashed', 60, Date.now() - 1)).to.deep.equal({ status: 'claimed' });
        expect(await guard.claim('crashed', 60, Date.now() + 1000)).to.deep.equal({ status: 'abandoned' });
        expect(await guard.claim('running', 60, Date.now() + 60_000)).to.deep.equal({ status: 'claimed' });
        expect(await guard.claim('running', 60, Date.now() + 60_000)).to.deep.equal({ status: 'in_progress' });
      } finally {
        await guard.close();
      }
    });

    it('fails closed for single-use states when Redis is down, while other flows keep working', async () => {
      const state = await confirmationState(a.url);
      await redis.stop();
      const refused = await callTool(a.url, 'release', args, { requestState: state, inputResponses: confirmYes });
      expect(refused.body.error.code).to.equal(-32603);
      expect(refused.body.error.message).to.match(/single-use guard is unavailable/);
      expect(counter.deployments).to.equal(0);
      // A round whose state is not single-use still runs.
      const first = await callTool(a.url, 'release', args);
      const next = await callTool(b.url, 'release', args, {
        requestState: first.body.result.requestState,
        inputResponses: { window: { action: 'accept', content: { window: 'now' } } },
      });
      expect(Object.keys(next.body.result.inputRequests)).to.deep.equal(['confirm']);
    });
  });
});
