/**
 * RedisTaskStore.claimExpired against a real redis-server: the shared deadline cases (the sweep
 * across instances, from outside: test/features/tasks-expiry-on-redis.test.ts).
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { KeyRing, RedisTaskStore } from '../../../server/engine/index.js';
import { REDIS, requireBinaries } from '../../helpers/required-binary.js';
import { startRedis, type RunningRedis } from '../../../bench/redis/index.js';
import { deadlineCases } from './task-deadline-cases.js';

describe('RedisTaskStore.claimExpired', () => {
  let redis: RunningRedis | undefined;
  let raw: Redis;
  const stores: RedisTaskStore[] = [];
  const keyRing = new KeyRing([{ id: 'k1', secret: new Uint8Array(randomBytes(32)) }]);
  let prefixes = 0;

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

  deadlineCases(() => {
    const prefix = `deadlines${++prefixes}:task:`;
    const store = new RedisTaskStore({ url: redis!.url, keyRing, prefix });
    stores.push(store);
    // What Redis does at the record's PEXPIREAT; the indexes and the deadlines are left as they are.
    return { store, deleteRecord: async (taskId) => void (await raw.del(prefix + taskId)) };
  });
});
