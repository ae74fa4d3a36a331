/**
 * The fake Redis the fast loop runs Redis code against (fake-redis/): it must answer as Redis
 * does where Baton's code depends on it, and refuse loudly what it does not implement, or a
 * fast test could pass on behaviour no real Redis has.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { startFakeRedis, type FakeRedis } from './fake-redis/fake-redis-server.js';

describe('fake Redis (test helper)', () => {
  let fake: FakeRedis;
  let redis: Redis;
  before(async () => {
    fake = await startFakeRedis();
    redis = new Redis(fake.url, { maxRetriesPerRequest: 0 });
  });
  after(async () => {
    redis.disconnect();
    await fake.close();
  });

  it('sets with NX, XX and KEEPTTL as Redis does', async () => {
    expect(await redis.set('k', 'a', 'EX', 60, 'NX')).to.equal('OK');
    expect(await redis.set('k', 'b', 'NX')).to.equal(null);
    expect(await redis.set('k', 'c', 'KEEPTTL', 'XX')).to.equal('OK');
    expect(await redis.get('k')).to.equal('c');
    expect(await redis.pttl('k')).to.be.within(1, 60_000);
    expect(await redis.set('missing', 'x', 'XX')).to.equal(null);
    expect(await redis.exists('missing')).to.equal(0);
  });

  it('runs scripts with Lua semantics: EVAL once, then EVALSHA; nil is false, 0 is true', async () => {
    redis.defineCommand('probe', {
      numberOfKeys: 1,
      lua: `
local v = redis.call('GET', KEYS[1])
if v then return {'found', v} end
if 0 then redis.call('SET', KEYS[1], ARGV[1] .. '-' .. (tonumber(ARGV[2]) + 1)) end
return {'set', redis.call('GET', KEYS[1]), #ARGV}`,
    });
    const probe = (redis as Redis & { probe(...a: unknown[]): Promise<unknown> }).probe.bind(redis);
    expect(await probe('p', 'v', '41')).to.deep.equal(['set', 'v-42', 2]);
    expect(await probe('p', 'v', '41')).to.deep.equal(['found', 'v-42']);
    expect(fake.store.log.filter((name) => name === 'eval' || name === 'evalsha')).to.deep.equal(['eval', 'evalsha']);
  });

  it('refuses what Redis would refuse, and what it does not implement', async () => {
    const failure = async (promise: Promise<unknown>) =>
      String(
        await promise.then(
          () => 'no error',
          (e) => e.message,
        ),
      );
    expect(await failure(redis.eval("return 1 < '2'", 0))).to.match(/attempt to compare/);
    expect(await failure(redis.eval('for i = 1, 2 do end return 1', 0))).to.match(/"for" is not supported/);
    expect(await failure(redis.call('OBJECT', 'ENCODING', 'k'))).to.match(/unknown command/);
  });
});
