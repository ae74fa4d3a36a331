/**
 * The Redis task store against a real redis-server: atomic changes under contention, records
 * sealed at rest, and a sealed body that does not open where it does not belong.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { KeyRing, RedisTaskStore, type TaskRecord } from '../../../server/engine/index.js';
import { REDIS, requireBinaries } from '../../helpers/required-binary.js';
import { startRedis, type RunningRedis } from '../../helpers/redis-server.js';

function record(taskId: string, now = Date.now()): TaskRecord {
  return {
    taskId,
    principal: 'p',
    tool: 'ship-release',
    arguments: { secret: 'correct-horse-battery-staple' },
    version: 'v1',
    clientCapabilities: {},
    status: 'working',
    phase: 'queued',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 1000,
    snapshot: { value: 'building', context: { count: 0 } },
    timers: [],
    asked: {},
    answers: {},
    askCounts: {},
    cancelRequested: false,
  };
}

describe('RedisTaskStore', () => {
  let redis: RunningRedis | undefined;
  let store: RedisTaskStore;
  let raw: Redis;
  const keyRing = new KeyRing([{ id: 'k1', secret: new Uint8Array(randomBytes(32)) }]);

  before(async function () {
    requireBinaries(this, REDIS);
    redis = await startRedis();
    store = new RedisTaskStore({ url: redis.url, keyRing });
    raw = new Redis(redis.url);
  });
  after(async () => {
    await store?.close();
    raw?.disconnect();
    await redis?.stop();
  });

  it('applies concurrent changes one after the other (compare-and-set), losing none', async () => {
    await store.create(record('t-cas'));
    const bump = (r: TaskRecord) => ({
      ...r,
      snapshot: { ...r.snapshot, context: { count: ((r.snapshot!.context as { count: number }).count ?? 0) + 1 } },
    });
    await Promise.all(Array.from({ length: 25 }, () => store.update('t-cas', bump)));
    const stored = await store.get('t-cas');
    expect((stored!.snapshot!.context as { count: number }).count).to.equal(25);
  });

  it('refuses to create a task twice', async () => {
    await store.create(record('t-twice'));
    let error: unknown;
    await store.create(record('t-twice')).catch((e) => (error = e));
    expect(error).to.be.instanceOf(Error);
  });

  it('keeps records sealed at rest, with a deletion time after the TTL', async () => {
    await store.create(record('t-sealed'));
    const body = await raw.hget('baton:task:t-sealed', 'body');
    expect(body).to.match(/^b1\.k1\./);
    expect(body).to.not.contain('correct-horse');
    expect(body).to.not.contain('ship-release');
    const ttl = await raw.pttl('baton:task:t-sealed');
    expect(ttl).to.be.within(60_000, 60_000 + 5 * 60_000);
  });

  it('treats a body moved under another task id, or sealed with another key, as no task', async () => {
    await store.create(record('t-source'));
    const body = await raw.hget('baton:task:t-source', 'body');
    await raw.hset('baton:task:t-copy', 'rev', '1', 'body', body!);
    expect(await store.get('t-copy')).to.equal(undefined);
    const stranger = new RedisTaskStore({
      url: redis!.url,
      keyRing: new KeyRing([{ id: 'k1', secret: new Uint8Array(randomBytes(32)) }]),
    });
    try {
      expect(await stranger.get('t-source')).to.equal(undefined);
    } finally {
      await stranger.close();
    }
  });

  it('delivers published events to every store sharing the Redis', async () => {
    const other = new RedisTaskStore({ url: redis!.url, keyRing });
    try {
      const seen: string[] = [];
      other.listen((taskId, kind) => seen.push(`${kind} ${taskId}`));
      await other.ready();
      await store.publish('t-x', 'cancel');
      for (let i = 0; i < 50 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(seen).to.deep.equal(['cancel t-x']);
    } finally {
      await other.close();
    }
  });
});
