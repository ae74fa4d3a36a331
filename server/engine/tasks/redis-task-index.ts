/**
 * The Redis task store's index, for listing (TaskStore.list) without `KEYS` or a SCAN of the whole
 * keyspace: two sorted sets under the store's prefix, kept by the same Lua scripts that create and
 * change records (redis-task-store.ts), so a record and its index entry never disagree:
 *
 * - `<prefix>index:changed`: task id -> lastUpdatedAt, the order tasks are listed in;
 * - `<prefix>index:expires`: task id -> when its record is deleted (deleteAfter), so entries of
 *   records Redis has expired are pruned as new tasks arrive (a few per create), and by any
 *   listing that finds a record gone.
 *
 * Both names hold a colon, which no task id does, so neither is ever mistaken for a task.
 * Records stored before the index existed are listed once they next change.
 */
import type { RedisConnection as Redis } from '../redis-target.js';
import type { ListPosition } from './task-listing.js';

export function indexKeys(prefix: string): { changed: string; expires: string } {
  return { changed: `${prefix}index:changed`, expires: `${prefix}index:expires` };
}

/**
 * Appended to the create script: KEYS[3] the changed index, KEYS[4] the expiry index; ARGV[11]
 * the task id, ARGV[12] its lastUpdatedAt; ARGV[2] is its deleteAfter and ARGV[5] now. Prunes at
 * most 16 entries of records already deleted, so one create costs O(log n) whatever is pending.
 */
export const INDEX_ON_CREATE = `
redis.call('ZADD', KEYS[3], ARGV[12], ARGV[11])
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[11])
local gone = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', ARGV[5], 'LIMIT', 0, 16)
if #gone > 0 then
  redis.call('ZREM', KEYS[3], unpack(gone))
  redis.call('ZREM', KEYS[4], unpack(gone))
end`;

/** Appended to the compare-and-set script: KEYS[3] the changed index; ARGV[4] the task id, ARGV[6] its lastUpdatedAt. */
export const INDEX_ON_UPDATE = `
redis.call('ZADD', KEYS[3], ARGV[6], ARGV[4])`;

// Up to ARGV[3] task ids from the changed index, newest first, from score ARGV[1] down to ARGV[4].
// With ARGV[2] (the last id read at score ARGV[1]), ids at that very score are read only below it
// (Redis orders equal scores by id, descending in reverse), so ties are never read twice or lost.
const PAGE = `
local want = tonumber(ARGV[3])
local top = tonumber(ARGV[1])
local out = {}
local offset = 0
while #out < want * 2 do
  local items = redis.call('ZREVRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[4], 'WITHSCORES', 'LIMIT', offset, want)
  if #items == 0 then break end
  for i = 1, #items, 2 do
    if ARGV[2] == '' or tonumber(items[i + 1]) < top or items[i] < ARGV[2] then
      out[#out + 1] = items[i]
      out[#out + 1] = items[i + 1]
      if #out >= want * 2 then break end
    end
  end
  offset = offset + want
end
return out`;

export type IndexRedis = Redis & { batonTaskPage(...args: string[]): Promise<string[]> };

/** Makes the index's page script a command of `redis`, run by its digest (EVALSHA). */
export function defineIndexCommands(redis: Redis): void {
  redis.defineCommand('batonTaskPage', { numberOfKeys: 1, lua: PAGE });
}

/** The next `count` index entries after `after` (or from the newest), changed within [min, max]. */
export async function readIndex(
  redis: IndexRedis,
  key: string,
  options: { after: ListPosition | undefined; count: number; min: number; max: number },
): Promise<ListPosition[]> {
  const { after, count, min, max } = options;
  const fromAfter = after !== undefined && after.changedAt <= max;
  const top = fromAfter ? after.changedAt : max;
  const flat = (await redis.batonTaskPage(
    key,
    String(top),
    fromAfter ? after.taskId : '',
    String(count),
    String(min),
  )) as string[];
  const entries: ListPosition[] = [];
  for (let i = 0; i < flat.length; i += 2) entries.push({ taskId: flat[i]!, changedAt: Number(flat[i + 1]) });
  return entries;
}

/** Drops the entries of records Redis no longer holds (their ttl ran out). */
export async function pruneIndex(redis: Redis, prefix: string, taskIds: string[]): Promise<void> {
  if (taskIds.length === 0) return;
  const keys = indexKeys(prefix);
  await redis
    .multi()
    .zrem(keys.changed, ...taskIds)
    .zrem(keys.expires, ...taskIds)
    .exec();
}
