/**
 * RedisReplayGuard in the fast loop, against the fake Redis (test/helpers/fake-redis): a real
 * ioredis client, Baton's own claim script run unchanged, each command atomic. What must hold for
 * exactly once across instances: one claim wins however many instances race, a claim is never
 * taken as free while its run may still go on, a later instance's start never moves the epoch,
 * and a Redis that lost its keys refuses what was issued before. The same guarantees against a
 * real redis-server: test/features/single-use.test.ts and single-use-guard-hardening.test.ts.
 */
import { expect } from 'chai';
import { RedisReplayGuard, type GuardClaim } from '../../../server/engine/index.js';
import { countingRelease } from '../../helpers/counting-release.js';
import { startFakeRedis, type FakeRedis } from '../../helpers/fake-redis/fake-redis-server.js';
import { callTool } from '../../helpers/mcp-http.js';
import { startTestServer, testKeyRing, type RunningServer } from '../../helpers/test-server.js';

const args = { service: 'billing', version: '2.4.0' };
const windowAnswer = { window: { action: 'accept', content: { window: 'now' } } };
const confirmYes = { confirm: { action: 'accept', content: { confirm: true } } };

describe('RedisReplayGuard (fake Redis, fast loop)', () => {
  let redis: FakeRedis;
  const guards: RedisReplayGuard[] = [];
  const guard = (clock?: () => number) => {
    const made = new RedisReplayGuard({ url: redis.url, ...(clock ? { clock } : {}) });
    guards.push(made);
    return made;
  };

  beforeEach(async () => {
    redis = await startFakeRedis();
  });
  afterEach(async () => {
    for (const made of guards.splice(0)) await made.close();
    await redis.close();
  });

  it('lets exactly one of many racing instances claim a state; the others see it in progress, then its outcome', async () => {
    const [a, b, c] = [guard(), guard(), guard()];
    const deadline = Date.now() + 60_000;
    const claims: GuardClaim[] = await Promise.all(
      [a, b, c, a, b, c].map((instance) => instance.claim('state-1', 60, deadline)),
    );
    expect(claims.filter((claim) => claim.status === 'claimed')).to.have.length(1);
    expect(claims.filter((claim) => claim.status === 'in_progress')).to.have.length(5);
    expect(await b.peek('state-1')).to.equal(true);
    await a.settle('state-1', 'outcome-1');
    expect(await c.claim('state-1', 60, deadline)).to.deep.equal({ status: 'settled', outcome: 'outcome-1' });
  });

  it('counts a claim whose run missed its deadline as abandoned, never as free; gives a claim back on release', async () => {
    const a = guard();
    expect(await a.claim('crashed', 60, Date.now() - 1)).to.deep.equal({ status: 'claimed' });
    expect(await a.claim('crashed', 60, Date.now() + 1000)).to.deep.equal({ status: 'abandoned' });
    expect(await a.claim('malformed', 60, Date.now() + 60_000)).to.deep.equal({ status: 'claimed' });
    await a.release('malformed');
    expect(await a.peek('malformed')).to.equal(false);
    expect(await a.claim('malformed', 60, Date.now() + 60_000)).to.deep.equal({ status: 'claimed' });
  });

  it("keeps the fleet's epoch when another instance starts later: states issued before still run once", async () => {
    const start = Date.now();
    const first = guard(() => start);
    expect(await first.claim('warm-up', 60, start + 60_000)).to.deep.equal({ status: 'claimed' });
    // An instance started 100 s later (a deploy, a restart) shares the same Redis.
    const later = guard(() => start + 100_000);
    const issuedAt = Math.floor(start / 1000) + 5;
    expect(
      await later.claim('issued-before', 60, start + 160_000, { owner: 'alice', quota: 0, issuedAt }),
    ).to.deep.equal({
      status: 'claimed',
    });
    expect(
      (await later.claim('issued-before', 60, start + 160_000, { owner: 'alice', quota: 0, issuedAt })).status,
    ).to.equal('in_progress');
  });

  it('refuses, as before the epoch, a state issued before Redis lost its keys', async () => {
    const start = Date.now();
    let now = start;
    const a = guard(() => now);
    const issuedAt = Math.floor(start / 1000);
    expect(await a.claim('used', 60, start + 60_000, { owner: 'alice', quota: 0, issuedAt })).to.deep.equal({
      status: 'claimed',
    });
    await a.settle('used', 'the result');
    now += 10_000;
    redis.store.flushAll();
    expect(await a.claim('used', 60, now + 60_000, { owner: 'alice', quota: 0, issuedAt })).to.deep.equal({
      status: 'before_epoch',
    });
    // A state issued after the loss runs.
    expect(
      await a.claim('fresh', 60, now + 60_000, { owner: 'alice', quota: 0, issuedAt: Math.ceil(now / 1000) + 1 }),
    ).to.deep.equal({
      status: 'claimed',
    });
  });

  it("refuses a principal's claims beyond its quota, and counts each principal apart", async () => {
    const a = guard();
    const deadline = Date.now() + 60_000;
    const scope = (owner: string) => ({ owner, quota: 2, issuedAt: Math.floor(Date.now() / 1000) });
    expect((await a.claim('q1', 60, deadline, scope('alice'))).status).to.equal('claimed');
    expect((await a.claim('q2', 60, deadline, scope('alice'))).status).to.equal('claimed');
    expect(await a.claim('q3', 60, deadline, scope('alice'))).to.deep.equal({ status: 'over_quota', quota: 2 });
    expect((await a.claim('q4', 60, deadline, scope('bob'))).status).to.equal('claimed');
  });

  it('stops start-up on a Redis that may evict claims, and passes one set for exactly once', async () => {
    expect(await guard().check()).to.deep.equal({ problems: [], warnings: [] });
    redis.store.config['maxmemory-policy'] = 'allkeys-lru';
    expect((await guard().check()).problems).to.have.length(1);
  });

  describe('two servers sharing it', () => {
    let a: RunningServer;
    let b: RunningServer;
    const { tool, counter } = countingRelease(40);

    beforeEach(async () => {
      const keyRing = testKeyRing('shared');
      a = await startTestServer({ tools: [tool], keyRing, replayGuard: guard(), instanceId: 'a' });
      b = await startTestServer({ tools: [tool], keyRing, replayGuard: guard(), instanceId: 'b' });
      counter.deployments = 0;
    });
    afterEach(async () => {
      await a.close();
      await b.close();
    });

    it('deploy once when both get the same confirmation at once; a later resend answers the same result', async () => {
      const r1 = await callTool(a.url, 'release', args);
      const r2 = await callTool(b.url, 'release', args, {
        requestState: r1.body.result.requestState,
        inputResponses: windowAnswer,
      });
      const round = { requestState: r2.body.result.requestState, inputResponses: confirmYes };
      const responses = await Promise.all([a, b, a, b].map((server) => callTool(server.url, 'release', args, round)));
      expect(counter.deployments).to.equal(1);
      // Those that arrive while it runs are told it is in use; one arriving after it settled gets its result.
      const results = responses.filter((response) => response.body.result).map((response) => response.body.result);
      expect(results).to.not.be.empty;
      for (const result of results) expect(result).to.deep.equal(results[0]);
      for (const response of responses.filter((r) => r.body.error)) {
        expect(response.body.error.data).to.deep.equal({ reason: 'request_state_in_use' });
      }
      const later = await callTool(b.url, 'release', args, round);
      expect(later.body.result).to.deep.equal(results[0]);
      expect(counter.deployments).to.equal(1);
    });
  });
});
