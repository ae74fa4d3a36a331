/**
 * Each owner's ledger in the Redis task store: what their tasks hold against the quotas (live
 * tasks, bytes), kept by the same Lua scripts that create and change records
 * (redis-task-store.ts), so admission is one atomic step.
 *
 * Three keys per owner, under `<prefix>owner:<digest>`:
 * - the ledger itself (a hash): task id -> `L|T:<bytes>:<deleteAfter>` (L live, T terminal);
 * - `…:sum` (a hash): `live` and `bytes`, the ledger's totals, kept as entries come and go;
 * - `…:expiry` (a sorted set): task id -> deleteAfter, so entries whose record Redis has deleted
 *   leave the totals in order of expiry, each once.
 *
 * Admission used to walk the whole ledger (HGETALL) on every create: O(tasks the owner holds),
 * terminal ones included until their records expire, which for a caller creating ten tasks a
 * second with an hour's ttl is 36,000 entries walked inside Redis for each new task, blocking every
 * other client of that Redis meanwhile. Now a create costs O(log n) plus the entries that expired
 * since the last one.
 *
 * The totals are recounted from the ledger when `…:sum` is missing: at the first create after
 * this build is deployed (ledgers written by earlier builds have no totals), and every
 * RECOUNT_MS, as `…:sum` expires, so any drift (an earlier build still changing entries during a
 * rolling deploy, a script cut short) lasts at most that long.
 */
export const RECOUNT_MS = 60_000;

/** The keys of one owner's ledger, in the order the scripts take them after the ledger itself. */
export function ledgerKeys(ownerKey: string): { sum: string; expiry: string } {
  return { sum: `${ownerKey}:sum`, expiry: `${ownerKey}:expiry` };
}

/**
 * Lua helpers over L (the ledger hash), S (its totals) and E (its expiry set), named by the
 * script that includes them. `parse` reads an entry; `recount` rebuilds S and E from L, dropping
 * entries that expired or do not parse; `totals` prunes what expired and answers live, bytes;
 * `enter`, `update` and `leave` keep S and E in step with one entry of L (`enter` a new task's,
 * `update` only of an entry still there, and only with what changed: a ZADD and the expiry set's
 * ttl only when the entry's deleteAfter moved, which a record rewritten within its ttl never does).
 */
export const LEDGER_LUA = `
local function parse(entry)
  if not entry then return nil end
  local kind, size, expires = string.match(entry, '^(%a):(%d+):(%d+)$')
  if kind == nil then return nil end
  return kind, tonumber(size), tonumber(expires)
end
local function recount(L, S, E, now)
  redis.call('DEL', E)
  local live, held = 0, 0
  local entries = redis.call('HGETALL', L)
  for i = 1, #entries, 2 do
    local kind, size, expires = parse(entries[i + 1])
    if kind == nil or expires <= now then
      redis.call('HDEL', L, entries[i])
    else
      held = held + size
      if kind == 'L' then live = live + 1 end
      redis.call('ZADD', E, expires, entries[i])
    end
  end
  redis.call('HSET', S, 'live', live, 'bytes', held)
  redis.call('PEXPIRE', S, ${RECOUNT_MS})
  local pttl = redis.call('PTTL', L)
  if pttl > 0 then redis.call('PEXPIRE', E, pttl) end
  return live, held
end
local function leave(L, S, E, id)
  local kind, size = parse(redis.call('HGET', L, id))
  redis.call('HDEL', L, id)
  redis.call('ZREM', E, id)
  if kind ~= nil and redis.call('EXISTS', S) == 1 then
    redis.call('HINCRBY', S, 'bytes', -size)
    if kind == 'L' then redis.call('HINCRBY', S, 'live', -1) end
  end
end
local function totals(L, S, E, now)
  if redis.call('EXISTS', S, L) < 2 then return recount(L, S, E, now) end
  while true do
    local due = redis.call('ZRANGEBYSCORE', E, '-inf', now, 'LIMIT', 0, 256)
    if #due == 0 then break end
    for i = 1, #due do
      local kind, _, expires = parse(redis.call('HGET', L, due[i]))
      if kind == nil or expires <= now then
        leave(L, S, E, due[i])
      else
        redis.call('ZADD', E, expires, due[i])
      end
    end
  end
  local sums = redis.call('HMGET', S, 'live', 'bytes')
  return tonumber(sums[1]) or 0, tonumber(sums[2]) or 0
end
local function change(L, S, E, id, entry, old)
  local oldKind, oldSize, oldExpires = parse(old)
  local kind, size, expires = parse(entry)
  redis.call('HSET', L, id, entry)
  if expires ~= oldExpires then
    redis.call('ZADD', E, expires, id)
    local pttl = redis.call('PTTL', L)
    if pttl > 0 then redis.call('PEXPIRE', E, pttl) end
  end
  if redis.call('EXISTS', S) == 1 then
    local live = (kind == 'L' and 1 or 0) - (oldKind == 'L' and 1 or 0)
    if live ~= 0 then redis.call('HINCRBY', S, 'live', live) end
    if size ~= oldSize then redis.call('HINCRBY', S, 'bytes', size - (oldSize or 0)) end
  end
end
-- A new task's entry, size and expires as the script got them (text, written as given). Its id is
-- new (the create script found no record of it; ids are 128 random bits): no old entry to read.
-- Totals just read by totals() (live, held) are written in one HSET, S being there; without them
-- (no quotas) S moves only if it is there. The create script sets the expiry set's ttl.
local function enter(L, S, E, id, size, expires, live, held)
  redis.call('HSET', L, id, 'L:' .. size .. ':' .. expires)
  redis.call('ZADD', E, expires, id)
  if live ~= nil then
    redis.call('HSET', S, 'live', live + 1, 'bytes', held + tonumber(size))
  elseif redis.call('EXISTS', S) == 1 then
    redis.call('HINCRBY', S, 'live', 1)
    redis.call('HINCRBY', S, 'bytes', size)
  end
end
-- An entry already in the ledger, changed (a task's record rewritten): one left by the ledger (its
-- record deleted, or freed as unreadable) stays out, and one that reads the same is left as it is.
local function update(L, S, E, id, entry)
  local old = redis.call('HGET', L, id)
  if old and old ~= entry then change(L, S, E, id, entry, old) end
end
`;
