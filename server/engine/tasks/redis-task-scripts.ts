/**
 * The Redis task store's Lua scripts (redis-task-store.ts), each one atomic step: create a task
 * within its owner's quotas, change it by compare-and-set, free an unreadable record's slot, and
 * hand out expired tasks to the sweep. They keep the owner's ledger (redis-owner-ledger.ts), the
 * list's index (redis-task-index.ts) and the deadlines in step with the records.
 */
import { connectRedis, type RedisTarget } from '../redis-target.js';
import { LEDGER_LUA } from './redis-owner-ledger.js';
import { defineIndexCommands, type IndexRedis, INDEX_ON_CREATE, INDEX_ON_UPDATE } from './redis-task-index.js';

// Creates the hash only if the task does not exist, with its deletion time, its sealed head
// (ARGV[9]) and its owner (ARGV[10], a digest) for freeing its ledger entry if it cannot be read.
// With an owner (ARGV[3], the task id), the task is entered in the owner's ledger (KEYS[2], its
// totals KEYS[5], its expiry set KEYS[6]: redis-owner-ledger.ts), and with quotas (ARGV[6] = '1')
// checked against them first, in the same atomic step. It enters the task in the list's index too
// (KEYS[3], KEYS[4]: redis-task-index.ts), and its ttl's end (ARGV[13]) in the deadlines (KEYS[7],
// for the expiry sweep).
const CREATE = `${LEDGER_LUA}
if redis.call('EXISTS', KEYS[1]) == 1 then return {0} end
local now = tonumber(ARGV[5])
local live, held
if ARGV[6] == '1' then
  live, held = totals(KEYS[2], KEYS[5], KEYS[6], now)
  if live + 1 > tonumber(ARGV[7]) then return {-1, live, held} end
  if held + tonumber(ARGV[4]) > tonumber(ARGV[8]) then return {-2, live, held} end
end
redis.call('HSET', KEYS[1], 'rev', '1', 'body', ARGV[1], 'head', ARGV[9], 'owner', ARGV[10])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
if ARGV[3] ~= '' then
  enter(KEYS[2], KEYS[5], KEYS[6], ARGV[3], ARGV[4], ARGV[2], live, held)
  -- The ledger and its expiry set live as long as the owner's last record, set here once.
  local pttl = redis.call('PTTL', KEYS[2])
  if pttl < 0 or now + pttl < tonumber(ARGV[2]) then
    redis.call('PEXPIREAT', KEYS[2], ARGV[2])
    redis.call('PEXPIREAT', KEYS[6], ARGV[2])
  else
    redis.call('PEXPIRE', KEYS[6], pttl)
  end
end
${INDEX_ON_CREATE}
redis.call('ZADD', KEYS[7], ARGV[13], ARGV[11])
return {1}`;
// Replaces the body only if nobody changed it since it was read; keeps the owner's ledger entry
// (KEYS[2], field ARGV[4]; totals KEYS[4], expiry set KEYS[5]) and the task's place in the list
// (KEYS[3], redis-task-index.ts) in step; takes an ended task (ARGV[9] = '1') out of the deadlines
// (KEYS[6]); then publishes ARGV[8] on channel ARGV[7], if given, so every instance hears of the
// change in the round trip that made it.
const COMPARE_AND_SET = `${LEDGER_LUA}
if redis.call('HGET', KEYS[1], 'rev') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'rev', ARGV[2], 'body', ARGV[3])
if ARGV[5] ~= '' then update(KEYS[2], KEYS[4], KEYS[5], ARGV[4], ARGV[5]) end
${INDEX_ON_UPDATE}
if ARGV[9] == '1' then redis.call('ZREM', KEYS[6], ARGV[4]) end
if ARGV[8] ~= '' then redis.call('PUBLISH', ARGV[7], ARGV[8]) end
return 1`;
// Frees the entry of a record that does not open (KEYS[1], if still at rev ARGV[1]) in its
// owner's ledger (KEYS[2], field ARGV[2]; totals KEYS[3], expiry set KEYS[4]), so it no longer
// holds its owner's live-task slot.
const RELEASE = `${LEDGER_LUA}
if redis.call('HGET', KEYS[1], 'rev') ~= ARGV[1] then return 0 end
if KEYS[2] ~= KEYS[1] then leave(KEYS[2], KEYS[3], KEYS[4], ARGV[2]) end
return 1`;

// Up to ARGV[2] tasks of the deadlines (KEYS[1]) due by ARGV[1], each leased until ARGV[3]. One
// whose record is gone (ARGV[4] .. id: its retention ran out) leaves the deadlines instead. The
// records are read by name, not declared: in a cluster they share the deadlines' slot (one hash tag).
const CLAIM_EXPIRED = `
local claimed = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))) do
  if redis.call('EXISTS', ARGV[4] .. id) == 1 then
    redis.call('ZADD', KEYS[1], ARGV[3], id)
    claimed[#claimed + 1] = id
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return claimed`;

/**
 * The store's scripts as commands of its connection: sent once, then run by their digest
 * (EVALSHA; ioredis loads a script again if Redis lost it), not resent whole with every call.
 *
 * The connection pipelines on its own (ioredis's `enableAutoPipelining`): what concurrent calls send
 * in one turn of the event loop goes out in one write, the next batch once that one is answered.
 * One Redis serves the whole fleet, and it pays for every read of a socket and every reply written
 * beside the commands themselves: at 16 tasks created at once, a create took Redis 3.2 reads
 * alone and about 0.6 so batched, and a third less of its CPU (docs/benchmarks.md, issue 44). Nothing
 * on this connection blocks (no WAIT, no blocking pop), so no batch waits on another's command.
 */
export type ScriptedRedis = IndexRedis & {
  batonTaskCreate(...args: string[]): Promise<number[]>;
  batonTaskSet(...args: string[]): Promise<number>;
  batonTaskRelease(...args: string[]): Promise<number>;
  batonTaskClaimExpired(...args: string[]): Promise<string[]>;
};

export function scriptedRedis(target: RedisTarget): ScriptedRedis {
  const redis = connectRedis(target, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
  redis.defineCommand('batonTaskCreate', { numberOfKeys: 7, lua: CREATE });
  redis.defineCommand('batonTaskSet', { numberOfKeys: 6, lua: COMPARE_AND_SET });
  redis.defineCommand('batonTaskClaimExpired', { numberOfKeys: 1, lua: CLAIM_EXPIRED });
  redis.defineCommand('batonTaskRelease', { numberOfKeys: 4, lua: RELEASE });
  defineIndexCommands(redis);
  return redis as ScriptedRedis;
}
