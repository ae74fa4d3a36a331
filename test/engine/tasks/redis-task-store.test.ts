/**
 * The Redis task store against a real redis-server: atomic changes under contention, records
 * sealed at rest, and a sealed body that does not open where it does not belong.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  KeyRing,
  RedisReplayGuard,
  RedisTaskStore,
  type TaskLimitError,
  type TaskRecord,
} from '../../../server/engine/index.js';
import { REDIS, requireBinaries } from '../../helpers/required-binary.js';
import { startRedis, type RunningRedis } from '../../../bench/redis/index.js';

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

  const phase = (value: TaskRecord['phase']) => (r: TaskRecord) => ({ ...r, phase: value });

  describe('update on a record it handed out (seen)', () => {
    const reads = async () => Number(/cmdstat_hmget:calls=(\d+)/.exec(await raw.info('commandstats'))?.[1] ?? 0);

    it('changes it without reading it again while it is current', async () => {
      await store.create(record('t-seen'));
      const seen = (await store.get('t-seen'))!;
      const before = await reads();
      const stored = await store.update('t-seen', phase('running'), { seen });
      expect(await reads(), 'HMGET calls').to.equal(before);
      expect(stored?.phase).to.equal('running');
      expect((await store.get('t-seen'))?.phase).to.equal('running');
      // What it wrote is seen too: the next change skips its read as well.
      const again = await reads();
      await store.update('t-seen', phase('idle'), { seen: stored! });
      expect(await reads(), 'HMGET calls').to.equal(again);
      expect((await store.get('t-seen'))?.phase).to.equal('idle');
    });

    it('applies the change to the current record when another changed it since', async () => {
      await store.create(record('t-stale'));
      const seen = (await store.get('t-stale'))!;
      await store.update('t-stale', (r) => ({ ...r, cancelRequested: true }));
      const stored = await store.update('t-stale', phase('running'), { seen });
      expect(stored).to.include({ phase: 'running', cancelRequested: true });
      expect(await store.get('t-stale')).to.include({ phase: 'running', cancelRequested: true });
    });

    it('asks the current record again when the seen one needs no change', async () => {
      await store.create({ ...record('t-nochange'), phase: 'running' });
      const seen = (await store.get('t-nochange'))!;
      await store.update('t-nochange', phase('idle'));
      // On the seen record (running) this leaves it as it is; on the current one (idle) it claims.
      const claim = (r: TaskRecord) => (r.phase === 'idle' ? { ...r, phase: 'running' as const } : undefined);
      const stored = await store.update('t-nochange', claim, { seen });
      expect(stored?.phase).to.equal('running');
      expect((await store.get('t-nochange'))?.phase).to.equal('running');
    });
  });

  it('tries a seen record as stored, not as its object was changed in place since', async () => {
    await store.create(record('t-mutated'));
    const seen = (await store.get('t-mutated'))!;
    // A step hands the record's arguments to the tool's machine, which may change them in place.
    (seen.arguments as Record<string, unknown>).secret = 'changed in place';
    await store.update('t-mutated', phase('running'), { seen });
    const stored = await store.get('t-mutated');
    expect(stored?.phase).to.equal('running');
    expect(stored?.arguments).to.deep.equal(record('t-mutated').arguments);
  });

  describe('announcing a change (announce)', () => {
    const published = async (run: () => Promise<unknown>) => {
      const heard: string[] = [];
      const stop = store.listen((taskId, kind) => heard.push(`${kind} ${taskId}`));
      await store.ready();
      const publishes = async () =>
        Number(/cmdstat_publish:calls=(\d+)/.exec(await raw.info('commandstats'))?.[1] ?? 0);
      const before = await publishes();
      await run();
      const sent = (await publishes()) - before;
      // Delivered through Redis: wait for the message rather than assume it has arrived.
      for (let n = 0; n < 100 && heard.length < sent; n++) await new Promise((r) => setTimeout(r, 10));
      stop();
      return { heard, sent };
    };

    it('publishes in the script that stores the change, not in a PUBLISH of its own', async () => {
      await store.create(record('t-announce'));
      const monitor = await raw.monitor();
      const publishes: string[] = [];
      monitor.on('monitor', (_time: string, args: string[], source: string) => {
        if (args[0]?.toLowerCase() === 'publish') publishes.push(source.startsWith('lua') ? 'in script' : 'own');
      });
      const { heard, sent } = await published(() =>
        store.update('t-announce', phase('running'), { announce: 'changed' }),
      );
      monitor.disconnect();
      expect(heard).to.deep.equal(['changed t-announce']);
      expect(sent).to.equal(1);
      expect(publishes).to.deep.equal(['in script']);
    });

    it('publishes nothing when the change is left undone', async () => {
      await store.create(record('t-quiet'));
      const { heard, sent } = await published(() => store.update('t-quiet', () => undefined, { announce: 'changed' }));
      expect(heard).to.deep.equal([]);
      expect(sent).to.equal(0);
    });
  });

  it('sends the operations of concurrent calls to Redis together, in a few reads rather than one each', async () => {
    const reads = async () => Number(/total_reads_processed:(\d+)/.exec(await raw.info('stats'))?.[1] ?? NaN);
    const ids = Array.from({ length: 32 }, (_, i) => `t-together-${i}`);
    await store.ready();
    const before = await reads();
    await Promise.all(ids.map((id) => store.create(record(id))));
    await Promise.all(ids.map((id) => store.get(id)));
    // 64 commands in two bursts: each burst goes out in one write (ioredis's automatic pipelining),
    // which redis-server takes in reads of at most 16 kB (the creates' 32 sealed records are about
    // 45 kB), not a read a command: sent one by one, the same calls took 41 reads here.
    const taken = (await reads()) - before;
    expect(taken).to.be.at.most(16);
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

  it('reads back the bodies it wrote itself without opening them, and opens any other', async () => {
    /** A key ring counting the look-ups of a key, which opening a sealed body starts with. */
    class CountingRing extends KeyRing {
      opens = 0;
      override find(id: string) {
        this.opens++;
        return super.find(id);
      }
    }
    const secret = new Uint8Array(randomBytes(32));
    const ringA = new CountingRing([{ id: 'k1', secret }]);
    const ringB = new CountingRing([{ id: 'k1', secret }]);
    const a = new RedisTaskStore({ url: redis!.url, keyRing: ringA, prefix: 'cache:' });
    const b = new RedisTaskStore({ url: redis!.url, keyRing: ringB, prefix: 'cache:' });
    try {
      await a.create(record('t-own'));
      const own = await a.get('t-own');
      expect(own?.snapshot).to.deep.equal({ value: 'building', context: { count: 0 } });
      const changed = await a.update('t-own', (r) => ({ ...r, statusMessage: 'one' }), { seen: own! });
      expect((await a.get('t-own'))?.statusMessage).to.equal('one');
      expect(ringA.opens).to.equal(0);
      // What it reads is its own: changing it changes nothing the store keeps.
      changed!.statusMessage = 'changed in place';
      expect((await a.get('t-own'))?.statusMessage).to.equal('one');
      // Another instance opens it; once that one wrote, the first opens the new body.
      expect((await b.get('t-own'))?.statusMessage).to.equal('one');
      expect(ringB.opens).to.equal(1);
      await b.update('t-own', (r) => ({ ...r, statusMessage: 'two' }));
      expect((await a.get('t-own'))?.statusMessage).to.equal('two');
      expect(ringA.opens).to.equal(1);
      // A body changed in Redis behind its back is opened, and refused.
      const body = (await raw.hget('cache:t-own', 'body'))!;
      await a.update('t-own', (r) => ({ ...r, statusMessage: 'three' }));
      await raw.hset('cache:t-own', 'body', `${body.slice(0, -2)}AA`);
      expect(await a.get('t-own')).to.equal(undefined);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('compresses records at rest, and leaves in flight ones uncompressed unless large', async () => {
    const sealedLength = async (taskId: string) => (await raw.hget(`baton:task:${taskId}`, 'body'))!.length;
    // 2,000 characters that deflate to a few dozen bytes.
    const arguments_ = { text: 'a'.repeat(2000) };
    await store.create({ ...record('t-flight'), arguments: arguments_ });
    expect(await sealedLength('t-flight')).to.be.greaterThan(2000);
    await store.update('t-flight', (r) => ({ ...r, phase: 'running' }));
    expect(await sealedLength('t-flight')).to.be.greaterThan(2000);
    await store.update('t-flight', (r) => ({ ...r, phase: 'idle', status: 'input_required' }));
    expect(await sealedLength('t-flight')).to.be.below(1000);
    await store.update('t-flight', (r) => ({ ...r, phase: 'queued', status: 'working' }));
    expect(await sealedLength('t-flight')).to.be.greaterThan(2000);
    await store.update('t-flight', (r) => ({ ...r, status: 'completed', result: { content: [] } }));
    expect(await sealedLength('t-flight')).to.be.below(1000);
    // Large in flight: compressed all the same.
    await store.create({ ...record('t-large'), arguments: { text: 'a'.repeat(5000) } });
    expect(await sealedLength('t-large')).to.be.below(1000);
    expect((await store.get('t-large'))?.arguments).to.deep.equal({ text: 'a'.repeat(5000) });
  });

  it('stores a field held as undefined as no field at all', async () => {
    await store.create({ ...record('t-undefined'), runningJob: undefined, statusMessage: 'kept' });
    const read = await store.get('t-undefined');
    expect(read).not.to.have.property('runningJob');
    expect(read?.statusMessage).to.equal('kept');
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

  it('reads back a record of repeated text: what it writes, every instance can open (red team 38.7)', async () => {
    // 12 KB of one character deflates to a few dozen bytes: more than 16 times over its sealed size.
    await store.create({ ...record('t-repeated'), arguments: { text: 'a'.repeat(12 * 1024) } });
    expect((await store.get('t-repeated'))?.arguments).to.deep.equal({ text: 'a'.repeat(12 * 1024) });
    const updated = await store.update('t-repeated', (r) => ({ ...r, answers: { note: 'b'.repeat(64 * 1024) } }));
    expect(updated?.answers).to.deep.equal({ note: 'b'.repeat(64 * 1024) });
    expect((await store.get('t-repeated'))?.answers).to.deep.equal({ note: 'b'.repeat(64 * 1024) });
  });

  it("answers a task's head without its body, sealed, and bound to its task id", async () => {
    const now = Date.now();
    await store.create(record('t-head', now));
    expect(await store.head('t-head')).to.deep.equal({
      principal: 'p',
      tool: 'ship-release',
      createdAt: now,
      ttlMs: 60_000,
    });
    const head = await raw.hget('baton:task:t-head', 'head');
    expect(head).to.match(/^b1\.k1\./);
    expect(head).to.not.contain('ship-release');
    await raw.hset('baton:task:t-head-copy', 'rev', '1', 'head', head!);
    expect(await store.head('t-head-copy')).to.equal(undefined);
    // A record stored before heads existed: the body answers instead.
    await raw.hdel('baton:task:t-head', 'head');
    expect((await store.head('t-head'))?.tool).to.equal('ship-release');
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

describe('RedisTaskStore quotas', () => {
  let redis: RunningRedis | undefined;
  let store: RedisTaskStore;
  const keyRing = new KeyRing([{ id: 'k1', secret: new Uint8Array(randomBytes(32)) }]);
  const quotas = { liveTasksPerClient: 3, bytesPerClient: 80 * 1024, recordBytes: 48 * 1024 };
  let next = 0;
  const owned = (owner: string, overrides: Partial<TaskRecord> = {}): TaskRecord => ({
    ...record(`q${next++}`),
    owner,
    ...overrides,
  });
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: TaskLimitError) => error,
    );

  before(async function () {
    requireBinaries(this, REDIS);
    redis = await startRedis();
    store = new RedisTaskStore({ url: redis.url, keyRing });
    store.useQuotas(quotas);
  });
  after(async () => {
    await store?.close();
    await redis?.stop();
  });

  it("refuses an owner's task past its live tasks, atomically across concurrent creates", async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => refusal(store.create(owned('alice')))));
    const refused = results.filter((error) => error !== undefined);
    expect(refused).to.have.length(3);
    expect(refused.every((error) => error!.limit === 'live_tasks')).to.equal(true);
    expect(await refusal(store.create(owned('bob')))).to.equal(undefined);
  });

  it('frees a live slot when a task ends, and counts its bytes until it is deleted', async () => {
    const ids = [owned('carol'), owned('carol'), owned('carol')];
    for (const r of ids) await store.create(r);
    expect((await refusal(store.create(owned('carol'))))?.limit).to.equal('live_tasks');
    await store.update(ids[0]!.taskId, (r) => ({ ...r, status: 'completed', result: { content: [] } }));
    expect(await refusal(store.create(owned('carol')))).to.equal(undefined);
  });

  it("refuses an owner's task past its bytes, and a record larger than one task", async () => {
    // Incompressible: a sealed body is compressed, and the quotas count what Redis stores.
    const text = randomBytes(22 * 1024).toString('base64');
    const twice = text + randomBytes(22 * 1024).toString('base64');
    expect((await refusal(store.create(owned('dave', { arguments: { text: twice } }))))?.limit).to.equal(
      'task_record_bytes',
    );
    expect(await refusal(store.create(owned('dave', { arguments: { text } })))).to.equal(undefined);
    expect(await refusal(store.create(owned('dave', { arguments: { text } })))).to.equal(undefined);
    expect((await refusal(store.create(owned('dave', { arguments: { text } }))))?.limit).to.equal('task_bytes');
    const small = owned('erin');
    await store.create(small);
    const grown = await refusal(store.update(small.taskId, (r) => ({ ...r, answers: { a: twice } })));
    expect(grown?.limit).to.equal('task_record_bytes');
  });

  it('reports a record that does not open and frees its live slot (red team 38.7)', async () => {
    const warnings: string[] = [];
    const logger = { info() {}, error() {}, warn: (event: string) => warnings.push(event) };
    const reporting = new RedisTaskStore({ url: redis!.url, keyRing, logger });
    reporting.useQuotas(quotas);
    try {
      const ids = [owned('frank'), owned('frank'), owned('frank')];
      for (const r of ids) await reporting.create(r);
      expect((await refusal(reporting.create(owned('frank'))))?.limit).to.equal('live_tasks');
      // A body damaged at rest (or sealed by an instance with another secret under the same key id).
      const raw = new Redis(redis!.url);
      const key = `baton:task:${ids[0]!.taskId}`;
      const body = (await raw.hget(key, 'body'))!;
      await raw.hset(key, 'body', body.slice(0, -8) + (body.endsWith('AAAAAAAA') ? 'BBBBBBBB' : 'AAAAAAAA'));
      raw.disconnect();
      expect(await reporting.get(ids[0]!.taskId)).to.equal(undefined);
      expect(warnings).to.include('task_record_unreadable');
      expect(await refusal(reporting.create(owned('frank')))).to.equal(undefined);
    } finally {
      await reporting.close();
    }
  });
});

describe('RedisTaskStore memory watch', () => {
  let redis: RunningRedis | undefined;
  let store: RedisTaskStore;
  let guard: RedisReplayGuard;
  const keyRing = new KeyRing([{ id: 'k1', secret: new Uint8Array(randomBytes(32)) }]);

  before(async function () {
    requireBinaries(this, REDIS);
    redis = await startRedis({ args: ['--maxmemory', '8mb', '--maxmemory-policy', 'noeviction'] });
    store = new RedisTaskStore({ url: redis.url, keyRing, maxMemoryFraction: 0.8, memoryCheckMs: 60_000 });
    store.useQuotas({ liveTasksPerClient: 10_000, bytesPerClient: 1 << 30, recordBytes: 1 << 20 });
    guard = new RedisReplayGuard({ url: redis.url });
  });
  after(async () => {
    await guard?.close();
    await store?.close();
    await redis?.stop();
  });

  it('refuses new tasks before Redis is full, so the single-use guard keeps working', async () => {
    const text = randomBytes(36 * 1024).toString('base64');
    let refused: TaskLimitError | undefined;
    for (let i = 0; i < 400 && !refused; i++) {
      refused = await store
        .create({ ...record(`m${i}`), owner: `owner-${i}`, arguments: { text: `${i}${text}` } })
        .then(
          () => undefined,
          (error: TaskLimitError) => error,
        );
      await store.checkMemory();
    }
    expect(refused?.limit).to.equal('task_store_full');
    expect(refused?.scope).to.equal('instance');
    // What is left of maxmemory still takes the guard's claims (noeviction refuses every write when full).
    expect(await guard.claim(`after-full-${Date.now()}`, 60, Date.now() + 60_000)).to.deep.equal({ status: 'claimed' });
  });
});
