/**
 * The fake Redis's keyspace and commands (fake-redis-server.ts): strings and sorted sets with
 * expiry, the commands Baton's Redis code sends (SET with NX/XX/EX/PX/KEEPTTL, GET, DEL, EXISTS,
 * the sorted-set commands its scripts use, PTTL, PEXPIRE, CONFIG GET), and EVAL/EVALSHA running
 * the script through lua-subset.ts. Each command runs to completion before the next one starts,
 * as in Redis, so a script is atomic here too. An unknown command is an error, never a no-op.
 */
import { createHash } from 'node:crypto';
import { LuaRuntimeError, LuaTable, LuaUnsupported, luaNumberString, runLua } from './lua-subset.js';

export class Status {
  constructor(readonly value: string) {}
}
export class ReplyError {
  constructor(readonly message: string) {}
}
export type Reply = Status | ReplyError | number | string | null | Reply[];

interface Entry {
  value: string | Map<string, number>;
  /** Milliseconds since the epoch, or undefined for no expiry. */
  expiresAt?: number;
}

const OK = new Status('OK');
const WRONGTYPE = new ReplyError('WRONGTYPE Operation against a key holding the wrong kind of value');

export interface FakeRedisOptions {
  clock?: () => number;
  /** What CONFIG GET answers (default: the settings exactly-once needs). */
  config?: Record<string, string>;
}

export class FakeRedisStore {
  readonly #keys = new Map<string, Entry>();
  readonly #scripts = new Map<string, string>();
  readonly #clock: () => number;
  readonly config: Record<string, string>;
  /** Every command name received, in order (lower case). */
  readonly log: string[] = [];

  constructor(options: FakeRedisOptions = {}) {
    this.#clock = options.clock ?? Date.now;
    this.config = options.config ?? { 'maxmemory-policy': 'noeviction', appendonly: 'yes', appendfsync: 'always' };
  }

  /** Forgets every key, as FLUSHALL or a restart without persistence does. */
  flushAll(): void {
    this.#keys.clear();
  }

  #entry(key: string): Entry | undefined {
    const entry = this.#keys.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= this.#clock()) {
      this.#keys.delete(key);
      return undefined;
    }
    return entry;
  }

  #zset(key: string, create: boolean): Map<string, number> | ReplyError | undefined {
    const entry = this.#entry(key);
    if (entry === undefined) {
      if (!create) return undefined;
      const set = new Map<string, number>();
      this.#keys.set(key, { value: set });
      return set;
    }
    return entry.value instanceof Map ? entry.value : WRONGTYPE;
  }

  execute(args: string[]): Reply {
    const [rawName = '', ...rest] = args;
    const name = rawName.toLowerCase();
    this.log.push(name);
    try {
      return this.#command(name, rest);
    } catch (error) {
      if (error instanceof LuaRuntimeError) return new ReplyError(`ERR Error running script: ${error.message}`);
      // A script beyond the interpreter's subset: said in the error the client sees, so the test fails.
      if (error instanceof LuaUnsupported) return new ReplyError(`ERR ${error.message}`);
      throw error;
    }
  }

  #command(name: string, a: string[]): Reply {
    const now = this.#clock();
    switch (name) {
      case 'ping':
        return new Status('PONG');
      case 'client':
      case 'select':
      case 'quit':
        return OK;
      case 'info':
        return '# Server\r\nredis_version:7.2.0\r\nloading:0\r\n';
      case 'flushall':
      case 'flushdb':
        this.flushAll();
        return OK;
      case 'config': {
        if (a[0]?.toLowerCase() !== 'get') return new ReplyError('ERR fake Redis: only CONFIG GET');
        const pattern = new RegExp(`^${(a[1] ?? '').replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
        return Object.entries(this.config)
          .filter(([key]) => pattern.test(key))
          .flat();
      }
      case 'get': {
        const entry = this.#entry(a[0]!);
        if (entry === undefined) return null;
        return typeof entry.value === 'string' ? entry.value : WRONGTYPE;
      }
      case 'set':
        return this.#set(a, now);
      case 'del':
      case 'exists': {
        let count = 0;
        for (const key of a) {
          if (this.#entry(key) === undefined) continue;
          count += 1;
          if (name === 'del') this.#keys.delete(key);
        }
        return count;
      }
      case 'pttl': {
        const entry = this.#entry(a[0]!);
        if (entry === undefined) return -2;
        return entry.expiresAt === undefined ? -1 : entry.expiresAt - now;
      }
      case 'pexpire':
      case 'expire': {
        const entry = this.#entry(a[0]!);
        if (entry === undefined) return 0;
        entry.expiresAt = now + Number(a[1]) * (name === 'expire' ? 1000 : 1);
        return 1;
      }
      case 'zadd': {
        const set = this.#zset(a[0]!, true) as Map<string, number> | ReplyError;
        if (set instanceof ReplyError) return set;
        let added = 0;
        for (let i = 1; i + 1 < a.length; i += 2) {
          if (!set.has(a[i + 1]!)) added += 1;
          set.set(a[i + 1]!, Number(a[i]));
        }
        return added;
      }
      case 'zcard': {
        const set = this.#zset(a[0]!, false);
        return set instanceof ReplyError ? set : (set?.size ?? 0);
      }
      case 'zremrangebyscore': {
        const set = this.#zset(a[0]!, false);
        if (set instanceof ReplyError) return set;
        if (!set) return 0;
        const [min, max] = [bound(a[1]!), bound(a[2]!)];
        let removed = 0;
        for (const [member, score] of set) {
          if (min.within(score, 'min') && max.within(score, 'max')) (set.delete(member), (removed += 1));
        }
        return removed;
      }
      case 'script': {
        if (a[0]?.toLowerCase() !== 'load') return new ReplyError('ERR fake Redis: only SCRIPT LOAD');
        return this.#load(a[1]!);
      }
      case 'eval':
        return this.#eval(this.#load(a[0]!), a.slice(1));
      case 'evalsha':
        if (!this.#scripts.has(a[0]!)) return new ReplyError('NOSCRIPT No matching script. Please use EVAL.');
        return this.#eval(a[0]!, a.slice(1));
      default:
        return new ReplyError(`ERR unknown command '${name}' (the fake Redis does not implement it)`);
    }
  }

  #set(a: string[], now: number): Reply {
    const [key, value] = [a[0]!, a[1]!];
    let mode: 'nx' | 'xx' | undefined;
    let expiresAt: number | undefined;
    let keepTtl = false;
    for (let i = 2; i < a.length; i++) {
      const option = a[i]!.toLowerCase();
      if (option === 'nx' || option === 'xx') mode = option;
      else if (option === 'keepttl') keepTtl = true;
      else if (option === 'ex' || option === 'px') {
        expiresAt = now + Number(a[++i]) * (option === 'ex' ? 1000 : 1);
      } else return new ReplyError(`ERR fake Redis: SET option ${option} is not implemented`);
    }
    const existing = this.#entry(key);
    if ((mode === 'nx' && existing) || (mode === 'xx' && !existing)) return null;
    const kept = keepTtl ? existing?.expiresAt : expiresAt;
    this.#keys.set(key, { value, ...(kept === undefined ? {} : { expiresAt: kept }) });
    return OK;
  }

  #load(script: string): string {
    const sha = createHash('sha1').update(script).digest('hex');
    this.#scripts.set(sha, script);
    return sha;
  }

  #eval(sha: string, a: string[]): Reply {
    const count = Number(a[0]);
    const keys = a.slice(1, 1 + count);
    const argv = a.slice(1 + count);
    const redis = {
      call: (...args: unknown[]) => {
        const reply = this.#command(String(args[0]).toLowerCase(), args.slice(1).map(toArgument));
        if (reply instanceof ReplyError) throw new LuaRuntimeError(reply.message);
        return toLua(reply);
      },
    };
    const tonumber = (value: unknown) => {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
      return Number.isNaN(n) ? undefined : n;
    };
    const globals = { KEYS: LuaTable.of(keys), ARGV: LuaTable.of(argv), redis, tonumber };
    return fromLua(runLua(this.#scripts.get(sha)!, globals));
  }
}

function bound(text: string): { within(score: number, side: 'min' | 'max'): boolean } {
  const exclusive = text.startsWith('(');
  const raw = exclusive ? text.slice(1) : text;
  const value = raw === '-inf' ? -Infinity : raw === '+inf' || raw === 'inf' ? Infinity : Number(raw);
  return {
    within: (score, side) =>
      side === 'min' ? (exclusive ? score > value : score >= value) : exclusive ? score < value : score <= value,
  };
}

/** A Lua value as a command argument (Redis refuses tables and nil). */
function toArgument(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return luaNumberString(value);
  throw new LuaRuntimeError('Lua redis() command arguments must be strings or integers');
}

/** Redis's reply-to-Lua conversion: nil is false, a status is `{ok=...}`. */
function toLua(reply: Reply): unknown {
  if (reply === null) return false;
  if (reply instanceof Status) {
    const table = new LuaTable();
    table.set('ok', reply.value);
    return table;
  }
  if (Array.isArray(reply)) return LuaTable.of(reply.map(toLua));
  return reply;
}

/** Redis's Lua-to-reply conversion: numbers truncate to integers, a table becomes an array. */
function fromLua(value: unknown): Reply {
  if (value === undefined || value === false) return null;
  if (value === true) return 1;
  if (typeof value === 'number') return Math.trunc(value);
  if (typeof value === 'string') return value;
  if (value instanceof LuaTable) {
    if (typeof value.get('err') === 'string') return new ReplyError(value.get('err') as string);
    if (typeof value.get('ok') === 'string') return new Status(value.get('ok') as string);
    return value.sequence().map(fromLua);
  }
  throw new LuaRuntimeError('the script returned a value Redis cannot answer');
}
