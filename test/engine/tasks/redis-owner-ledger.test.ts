/**
 * The owner ledger of the Redis task store (redis-owner-ledger.ts), on a real redis-server: a
 * create is admitted against running totals, not a walk of every task the owner holds; entries
 * leave the totals as their records expire; a ledger an earlier build wrote (no totals) is counted
 * at the first create; and totals that drifted are corrected when they are recounted.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { KeyRing, RedisTaskStore, type TaskLimitError } from '../../../server/engine/index.js';
import { RECOUNT_MS } from '../../../server/engine/tasks/redis-owner-ledger.js';
import { RETENTION_AFTER_TTL_MS } from '../../../server/engine/tasks/task-store.js';
import { REDIS, requireBinaries } from '../../helpers/required-binary.js';
import { startRedis, type RunningRedis } from '../../../bench/redis/index.js';
import { queuedRecord } from './queued-record.js';

/** Calls by command since Redis started, Lua's own calls included (INFO commandstats). */
async function commandCalls(redis: Redis): Promise<Record<string, number>> {
  const text = await redis.info('commandstats');
  return Object.fromEntries(
    [...text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map(([, name, n]) => [name, Number(n)]),
  );
}

describe('RedisTaskStore owner ledger', function () {
  this.timeout(60_000);
  let redis: RunningRedis | undefined;
  let raw: Redis;
  let store: RedisTaskStore;
  const keyRing = new KeyRing([{ id: 'k1', secret: new Uint8Array(randomBytes(32)) }]);
  const quotas = { liveTasksPerClient: 3, bytesPerClient: 64 * 1024 * 1024, recordBytes: 48 * 1024 };
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: TaskLimitError) => error,
    );
  const ledger = (owner: string) => `baton:task:owner:${owner}`;

  before(async function () {
    requireBinaries(this, REDIS);
    redis = await startRedis();
    raw = new Redis(redis.url);
    store = new RedisTaskStore({ url: redis.url, keyRing });
    store.useQuotas(quotas);
  });
  after(async () => {
    raw?.disconnect();
    await store?.close();
    await redis?.stop();
  });

  it('admits a task without walking the tasks its owner already holds', async () => {
    // 1,500 finished tasks still count their bytes until their records are deleted.
    for (let i = 0; i < 1500; i++) {
      const task = queuedRecord('heavy');
      await store.create(task);
      await store.update(task.taskId, (r) => ({ ...r, status: 'completed', result: { content: [] } }));
    }
    expect(await raw.hlen(ledger('heavy'))).to.equal(1500);
    const before = await commandCalls(raw);
    for (let i = 0; i < 20; i++) {
      const task = queuedRecord('heavy');
      await store.create(task);
      await store.update(task.taskId, (r) => ({ ...r, status: 'completed', result: { content: [] } }));
    }
    const after = await commandCalls(raw);
    const delta = (name: string) => (after[name] ?? 0) - (before[name] ?? 0);
    // The old admission read the whole ledger (HGETALL of 1,500 entries) on every create.
    expect(delta('hgetall')).to.equal(0);
    const perCreateAndFinish = Object.keys(after).reduce((sum, name) => sum + delta(name), 0) / 20;
    expect(perCreateAndFinish).to.be.below(60);
    expect(await raw.hmget(`${ledger('heavy')}:sum`, 'live', 'bytes')).to.satisfy(
      ([live, bytes]: string[]) => live === '0' && Number(bytes) > 0,
    );
  });

  it('enters a new task in one script of 16 commands, and keeps the expiry set as long as the ledger', async () => {
    const owner = ledger('lean');
    const later = queuedRecord('lean', { ttlMs: 3_600_000 });
    await store.create(later);
    const deleteAfter = later.createdAt + later.ttlMs + RETENTION_AFTER_TTL_MS;
    expect(await raw.hget(owner, later.taskId)).to.match(new RegExp(`^L:\\d+:${deleteAfter}$`));
    expect(await raw.zscore(`${owner}:expiry`, later.taskId)).to.equal(String(deleteAfter));
    // The expiry set gone (as a ledger an earlier build wrote has none), then a task kept a minute,
    // which does not extend the ledger's ttl: the set made again must still expire with the ledger.
    await raw.del(`${owner}:expiry`);
    const before = await commandCalls(raw);
    await store.create(queuedRecord('lean'));
    const after = await commandCalls(raw);
    const sent = Object.keys(after)
      .filter((name) => name !== 'info') // the first reading of the counters
      .reduce((sum, name) => sum + after[name]! - (before[name] ?? 0), 0);
    const ledgerTtl = await raw.pttl(owner);
    expect(ledgerTtl).to.be.greaterThan(deleteAfter - Date.now() - 5_000);
    expect(Math.abs((await raw.pttl(`${owner}:expiry`)) - ledgerTtl)).to.be.below(1_000);
    expect(await raw.hmget(`${owner}:sum`, 'live', 'bytes')).to.satisfy(
      ([live, bytes]: string[]) => live === '2' && Number(bytes) > 0,
    );
    // EVALSHA and, inside it: EXISTS (the record), EXISTS (the totals and the ledger), ZRANGEBYSCORE
    // and HMGET (the totals), HSET and PEXPIREAT (the record), HSET, ZADD, HSET (the ledger entry,
    // its expiry, the totals), PTTL and PEXPIRE (the expiry set's ttl), ZADD, ZADD, ZRANGEBYSCORE
    // (the list's index), ZADD (the deadlines).
    expect(sent).to.equal(16);
  });

  it('frees what an expired record held, so its owner gets the slots back', async () => {
    // Records whose deletion time comes in 400 ms: createdAt + ttl + retention.
    const soon = () => queuedRecord('expiring', { createdAt: Date.now() - 60_000 - RETENTION_AFTER_TTL_MS + 400 });
    for (let i = 0; i < 3; i++) await store.create(soon());
    expect((await refusal(store.create(queuedRecord('expiring'))))?.limit).to.equal('live_tasks');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await refusal(store.create(queuedRecord('expiring')))).to.equal(undefined);
    expect(await raw.hget(`${ledger('expiring')}:sum`, 'live')).to.equal('1');
    expect(await raw.zcard(`${ledger('expiring')}:expiry`)).to.equal(1);
  });

  it('counts a ledger an earlier build wrote, without totals, at the first create', async () => {
    const expires = Date.now() + 120_000;
    await raw.hset(
      ledger('legacy'),
      'old1',
      `L:100:${expires}`,
      'old2',
      `L:100:${expires}`,
      'old3',
      `L:100:${expires}`,
    );
    expect((await refusal(store.create(queuedRecord('legacy'))))?.limit).to.equal('live_tasks');
    expect(await raw.hget(`${ledger('legacy')}:sum`, 'live')).to.equal('3');
  });

  it('recounts totals that drifted once they expire, and keeps them for at most RECOUNT_MS', async () => {
    await store.create(queuedRecord('drifted'));
    const sum = `${ledger('drifted')}:sum`;
    const ttl = await raw.pttl(sum);
    expect(ttl).to.be.greaterThan(0);
    expect(ttl).to.be.at.most(RECOUNT_MS);
    // Totals gone wrong (an earlier build changed entries meanwhile): refused while they hold...
    await raw.hset(sum, 'live', '3');
    expect((await refusal(store.create(queuedRecord('drifted'))))?.limit).to.equal('live_tasks');
    // ...and right again once they expire, as they do after RECOUNT_MS.
    await raw.del(sum);
    expect(await refusal(store.create(queuedRecord('drifted')))).to.equal(undefined);
    expect(await raw.hget(sum, 'live')).to.equal('2');
  });
});
