/**
 * RedisTaskStore.list against a real redis-server: the shared listing cases, 10,000 tasks read in
 * pages of 50 through the sorted index (no KEYS, no SCAN), and the index kept in step with records
 * Redis deletes.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { KeyRing, RedisTaskStore, type TaskSummary } from '../../../server/engine/index.js';
import { REDIS, requireBinaries } from '../../helpers/required-binary.js';
import { startRedis, type RunningRedis } from '../../../bench/redis/index.js';
import { allPages, listedRecord, listingCases } from './task-listing-cases.js';

/** How often Redis ran each command, from INFO commandstats. */
async function commandCounts(raw: Redis): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [, name, calls] of (await raw.info('commandstats')).matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    counts[name!] = Number(calls);
  }
  return counts;
}

describe('RedisTaskStore.list', function () {
  this.timeout(120_000);
  let redis: RunningRedis | undefined;
  let raw: Redis;
  const stores: RedisTaskStore[] = [];
  const keyRing = new KeyRing([{ id: 'k1', secret: new Uint8Array(randomBytes(32)) }]);
  let prefixes = 0;
  const make = () => {
    const store = new RedisTaskStore({ url: redis!.url, keyRing, prefix: `list${++prefixes}:task:` });
    stores.push(store);
    return store;
  };

  before(async function () {
    requireBinaries(this, REDIS);
    redis = await startRedis();
    raw = new Redis(redis.url);
  });
  after(async () => {
    await Promise.all(stores.map((store) => store.close()));
    raw?.disconnect();
    await redis?.stop();
  });

  listingCases(make);

  it('pages through 10,000 tasks 50 at a time, each once and in order, without KEYS or SCAN', async () => {
    const store = make();
    const base = Date.now();
    for (let n = 0; n < 10_000; n += 500) {
      await Promise.all(
        Array.from({ length: 500 }, (_, k) =>
          // Ten tasks share each millisecond: ties across page boundaries.
          store.create(listedRecord(`t${n + k}`, { createdAt: base, lastUpdatedAt: base + Math.floor((n + k) / 10) })),
        ),
      );
    }
    await raw.config('RESETSTAT');
    const started = performance.now();
    const pages = await allPages(store, { limit: 50 });
    const perPageMs = (performance.now() - started) / pages.length;
    const counts = await commandCounts(raw);
    const listed = pages.flatMap((p) => p.tasks);
    expect(pages).to.have.length(200);
    expect(pages.every((p) => p.tasks.length === 50)).to.equal(true);
    expect(new Set(listed.map((t) => t.taskId)).size).to.equal(10_000);
    const order = (a: TaskSummary, b: TaskSummary) =>
      b.lastUpdatedAt - a.lastUpdatedAt || (a.taskId < b.taskId ? 1 : -1);
    expect(listed.map((t) => t.taskId)).to.deep.equal([...listed].sort(order).map((t) => t.taskId));
    expect(counts.keys ?? 0).to.equal(0);
    expect(counts.scan ?? 0).to.equal(0);
    // The figure for docs/console.md; not asserted (no timing asserts).
    console.log(`      ${pages.length} pages of 50: ${perPageMs.toFixed(1)} ms a page`);
  });

  it('drops the index entries of records Redis deleted, and lists them no more', async () => {
    const store = make();
    const prefix = `list${prefixes}:task:`;
    await store.create(listedRecord('kept'));
    await store.create(listedRecord('gone'));
    await raw.del(`${prefix}gone`);
    expect((await store.list()).tasks.map((t) => t.taskId)).to.deep.equal(['kept']);
    expect(await raw.zscore(`${prefix}index:changed`, 'gone')).to.equal(null);
    expect(await raw.zscore(`${prefix}index:expires`, 'gone')).to.equal(null);
  });

  it('prunes entries whose records expired as new tasks are created', async () => {
    const store = make();
    const prefix = `list${prefixes}:task:`;
    const past = Date.now() - 10 * 60 * 60_000;
    // Created long ago with a short ttl: Redis deletes the hash at once (PEXPIREAT in the past).
    await store.create(listedRecord('expired', { createdAt: past, lastUpdatedAt: past, ttlMs: 1000 }));
    expect(await raw.exists(`${prefix}expired`)).to.equal(0);
    await store.create(listedRecord('fresh'));
    expect(await raw.zscore(`${prefix}index:changed`, 'expired')).to.equal(null);
    expect(await raw.zcard(`${prefix}index:expires`)).to.equal(1);
  });
});
