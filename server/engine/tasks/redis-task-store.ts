/**
 * Tasks in Redis, shared by every instance of a fleet. Each task is one hash, `rev` (a counter
 * for compare-and-set) and `body`: the whole record sealed with the key ring in the same envelope
 * as `requestState` (sealed-state.ts), so a Redis dump or a replica reveals nothing, and a body
 * moved under another task's key does not open (the claims name the task id). Events travel on
 * one pub/sub channel. Redis must keep its keys: see docs/tasks.md for the settings.
 */
import { clusterPrefix, connectRedis, targetOf, type RedisConnection, type RedisTarget } from '../redis-target.js';
import type { KeyRing } from '../state/key-ring.js';
import {
  openState,
  sealState,
  sealStateText,
  StateSizeError,
  type SealedContent,
  type SealedText,
} from '../state/sealed-state.js';
import { pooledRandomBytes } from '../state/random-pool.js';
import { SealedRecordCache } from './sealed-record-cache.js';
import { silentLogger, type Logger } from '../logger.js';
import {
  deleteAfter,
  type TaskEventKind,
  type TaskEventListener,
  type TaskHead,
  type TaskStore,
  type UpdateOptions,
} from './task-store.js';
import { isTerminal, type TaskRecord } from './task-record.js';
import { admissionProblem, recordTooLarge, type TaskQuotas } from './task-quotas.js';
import { DEFAULT_MAX_MEMORY_FRACTION, RedisMemoryWatch } from './redis-memory-watch.js';
import { indexKeys, pruneIndex, readIndex } from './redis-task-index.js';
import { ledgerKeys } from './redis-owner-ledger.js';
import { scriptedRedis, type ScriptedRedis } from './redis-task-scripts.js';
import {
  encodeCursor,
  matchesQuery,
  MAX_TASKS_SCANNED,
  normalizeTaskQuery,
  type TaskListQuery,
  type TaskPage,
} from './task-listing.js';
import { summarizeTask, type TaskSummary } from './task-summary.js';

/** Where the store's Redis is, the key ring that seals its records, and its memory limits. */
export interface RedisTaskStoreOptions {
  /** One Redis (`redis://…`); or give `redis`. */
  url?: string;
  /** One Redis, a Sentinel set or a Redis Cluster (redis-target.ts). */
  redis?: RedisTarget;
  keyRing: KeyRing;
  /** Key prefix, so several deployments can share one Redis. */
  prefix?: string;
  /**
   * With quotas in force, new tasks are refused once Redis uses this fraction of its `maxmemory`
   * (0.8), so what is left keeps the single-use guard, the queue and running tasks working
   * (redis-memory-watch.ts). Without a `maxmemory` Redis has no limit to measure against.
   */
  maxMemoryFraction?: number;
  /** How often Redis's memory is read (5 s). */
  memoryCheckMs?: number;
  /** Where a record that can no longer be read is reported. */
  logger?: Logger;
}

/**
 * The one size rule for a record at rest, applied where it is sealed and where it is opened, so
 * Redis never holds a record that no instance can read back. A record may be far larger than a
 * requestState (its snapshot included): 8 MiB sealed bounds bugs, the quotas bound callers. Unlike
 * a requestState, only Baton writes a record, so how well its text compresses is no threat: a
 * record of repeated text (a 12 KB argument of one character deflates to ~60 bytes) opens as long
 * as its text stays under 4 x 8 MiB (sealed-state.ts, CONTEXT_FACTOR).
 */
export const RECORD_BOUNDS = { maxLength: 8 * 1024 * 1024, inflationRatio: Number.POSITIVE_INFINITY };
const MAX_CAS_ATTEMPTS = 50;

/** Tasks in Redis, sealed at rest, shared by every instance of a fleet (docs/tasks.md). */
export class RedisTaskStore implements TaskStore {
  readonly #redis: ScriptedRedis;
  readonly #subscriber: RedisConnection;
  readonly #keyRing: KeyRing;
  readonly #prefix: string;
  readonly #channel: string;
  readonly #index: { changed: string; expires: string };
  /** Task id -> when its ttl runs out (or its sweep lease ends), for the tasks not yet ended. */
  readonly #deadlines: string;
  readonly #listeners = new Set<TaskEventListener>();
  readonly #memory: RedisMemoryWatch;
  readonly #logger: Logger;
  #subscribed: Promise<unknown> | undefined;
  #quotas: TaskQuotas | undefined;
  /**
   * The revision and sealed body of each record this store handed out (by get or update), for
   * `update(…, { seen })`: the body is opened again rather than the object trusted, which the
   * caller may have changed in place (a step hands its arguments to the tool's machine). Weak: a
   * record the caller let go of is forgotten with it.
   */
  readonly #versions = new WeakMap<TaskRecord, StoredVersion>();
  /** The text of the bodies this instance wrote last, read back without opening them. */
  readonly #written = new SealedRecordCache();
  readonly #randomBytes = pooledRandomBytes();

  constructor(options: RedisTaskStoreOptions) {
    const target = targetOf(options);
    this.#redis = scriptedRedis(target);
    this.#subscriber = connectRedis(target, { maxRetriesPerRequest: null });
    // Connection errors surface on each command; without a listener ioredis logs every retry.
    this.#redis.on('error', () => {});
    this.#subscriber.on('error', () => {});
    this.#keyRing = options.keyRing;
    this.#logger = options.logger ?? silentLogger;
    this.#memory = new RedisMemoryWatch(this.#redis, {
      maxFraction: options.maxMemoryFraction ?? DEFAULT_MAX_MEMORY_FRACTION,
      intervalMs: options.memoryCheckMs ?? 5000,
    });
    this.#prefix = clusterPrefix(target, options.prefix ?? 'baton:task:');
    this.#channel = `${this.#prefix}events`;
    this.#index = indexKeys(this.#prefix);
    // A colon, which no task id holds: never mistaken for a task.
    this.#deadlines = `${this.#prefix}index:deadlines`;
    this.#subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.#channel) return;
      const space = message.indexOf(' ');
      const kind = message.slice(0, space) as TaskEventKind;
      const taskId = message.slice(space + 1);
      for (const listener of this.#listeners) listener(taskId, kind);
    });
  }

  useQuotas(quotas: TaskQuotas): void {
    this.#quotas = quotas;
    this.#memory.start();
  }

  async create(record: TaskRecord): Promise<void> {
    const sealed = this.#seal(record);
    const body = sealed.token;
    const quotas = this.#quotas;
    if (quotas) {
      if (body.length > quotas.recordBytes) throw recordTooLarge(body.length, quotas.recordBytes);
      const full = this.#memory.refusal();
      if (full) throw full;
    }
    const owner = record.owner;
    const ledger = owner ? this.#ledgerKeys(owner) : undefined;
    const taskKey = this.#key(record.taskId);
    const [created, live, held] = await this.#redis.batonTaskCreate(
      taskKey,
      ledger?.ledger ?? taskKey,
      this.#index.changed,
      this.#index.expires,
      ledger?.sum ?? taskKey,
      ledger?.expiry ?? taskKey,
      this.#deadlines,
      body,
      String(deleteAfter(record)),
      owner ? record.taskId : '',
      String(body.length),
      String(Date.now()),
      quotas && owner ? '1' : '0',
      String(quotas?.liveTasksPerClient ?? 0),
      String(quotas?.bytesPerClient ?? 0),
      this.#sealHead(record),
      owner ?? '',
      record.taskId,
      String(record.lastUpdatedAt),
      String(record.createdAt + record.ttlMs),
    );
    if (created === 1) {
      this.#written.remember(record.taskId, sealed);
      return;
    }
    if (created === 0) throw new Error(`task ${record.taskId} exists`);
    throw admissionProblem({ live: live!, bytes: held! }, body.length, quotas!)!;
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const [version, record] = await this.#read(taskId);
    if (record && version) this.#versions.set(record, version);
    return record;
  }

  async head(taskId: string): Promise<TaskHead | undefined> {
    const head = await this.#redis.hget(this.#key(taskId), 'head');
    if (head === null) {
      // Stored before records had a head: the body says the same, at the cost of reading it.
      const [, record] = await this.#read(taskId);
      return (
        record && { principal: record.principal, tool: record.tool, createdAt: record.createdAt, ttlMs: record.ttlMs }
      );
    }
    const opened = openState(head, this.#keyRing, MAX_SEALED_HEAD);
    const fields = opened?.snapshot as { createdAt?: unknown; ttlMs?: unknown } | undefined;
    if (!opened || opened.claims.id !== taskId || !fields) return undefined;
    if (typeof fields.createdAt !== 'number' || typeof fields.ttlMs !== 'number') return undefined;
    const tool = opened.claims.target.slice(TARGET_PREFIX.length);
    return { principal: opened.claims.principal, tool, createdAt: fields.createdAt, ttlMs: fields.ttlMs };
  }

  async peek<T>(taskId: string, read: (record: Readonly<TaskRecord>) => T): Promise<T | undefined> {
    const [, record] = await this.#read(taskId);
    return record && read(record);
  }

  async update(
    taskId: string,
    change: (record: TaskRecord) => TaskRecord | undefined,
    options: UpdateOptions = {},
  ): Promise<TaskRecord | undefined> {
    // The version the caller saw: the compare-and-set below says whether it is still current, so
    // the first attempt need not read it again.
    const { seen, announce } = options;
    const seenVersion = seen && seen.taskId === taskId ? this.#versions.get(seen) : undefined;
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const trySeen = attempt === 0 && seenVersion !== undefined;
      const [version, current] = trySeen
        ? [seenVersion, this.#open(taskId, seenVersion.body)]
        : await this.#read(taskId);
      if (!current || version === undefined) return undefined;
      const next = change(current);
      // Left as it is: said of the current record only, never of one that may have changed since.
      if (!next && trySeen) continue;
      if (!next) return current;
      const sealed = this.#seal(next);
      const body = sealed.token;
      if (this.#quotas && body.length > this.#quotas.recordBytes) {
        throw recordTooLarge(body.length, this.#quotas.recordBytes);
      }
      const owner = next.owner;
      const ledger = owner ? this.#ledgerKeys(owner) : undefined;
      const taskKey = this.#key(taskId);
      const rev = String(Number(version.rev) + 1);
      const stored = await this.#redis.batonTaskSet(
        taskKey,
        ledger?.ledger ?? taskKey,
        this.#index.changed,
        ledger?.sum ?? taskKey,
        ledger?.expiry ?? taskKey,
        this.#deadlines,
        version.rev,
        rev,
        body,
        taskId,
        owner ? `${isTerminal(next) ? 'T' : 'L'}:${body.length}:${deleteAfter(next)}` : '',
        String(next.lastUpdatedAt),
        this.#channel,
        announce ? eventMessage(announce, taskId) : '',
        isTerminal(next) ? '1' : '0',
      );
      if (stored === 1) {
        this.#versions.set(next, { rev, body });
        this.#written.remember(taskId, sealed);
        return next;
      }
    }
    throw new Error(`task ${taskId}: too many concurrent changes`);
  }

  async list(query?: TaskListQuery): Promise<TaskPage> {
    const q = normalizeTaskQuery(query);
    const tasks: TaskSummary[] = [];
    let after = q.after;
    let scanned = 0;
    for (;;) {
      const need = Math.min(q.limit - tasks.length, MAX_TASKS_SCANNED - scanned);
      // One entry more than is read: whether it exists says if a cursor is owed.
      const entries = await readIndex(this.#redis, this.#index.changed, {
        after,
        count: need + 1,
        min: q.changedAfter,
        max: q.changedBefore,
      });
      const read = entries.slice(0, need);
      const records = await this.#readMany(read.map((entry) => entry.taskId));
      const gone: string[] = [];
      read.forEach((entry, n) => {
        const record = records[n];
        if (record === null) gone.push(entry.taskId);
        const summary = record ? summarizeTask(record) : undefined;
        if (summary && matchesQuery(summary, q)) tasks.push(summary);
      });
      await pruneIndex(this.#redis, this.#prefix, gone);
      scanned += read.length;
      after = read.at(-1) ?? after;
      if (entries.length <= need) return { tasks };
      if (tasks.length === q.limit || scanned >= MAX_TASKS_SCANNED) return { tasks, cursor: encodeCursor(after!) };
    }
  }

  async claimExpired(now: number, limit: number, leaseMs: number): Promise<string[]> {
    return this.#redis.batonTaskClaimExpired(
      this.#deadlines,
      String(now),
      String(limit),
      String(now + leaseMs),
      this.#prefix,
    );
  }

  async publish(taskId: string, kind: TaskEventKind): Promise<void> {
    await this.#redis.publish(this.#channel, eventMessage(kind, taskId));
  }

  listen(listener: TaskEventListener): () => void {
    this.#subscribed ??= this.#subscriber.subscribe(this.#channel);
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Reads Redis's memory use now, as the watch does every `memoryCheckMs` (for tests and logs). */
  async checkMemory(): Promise<{ used: number; max: number } | undefined> {
    return this.#memory.read();
  }

  /** Resolves once this instance receives events (tests wait for it before publishing). */
  async ready(): Promise<void> {
    this.#subscribed ??= this.#subscriber.subscribe(this.#channel);
    await this.#subscribed;
  }

  async close(): Promise<void> {
    this.#memory.stop();
    this.#listeners.clear();
    this.#redis.disconnect();
    this.#subscriber.disconnect();
  }

  #key(taskId: string): string {
    return this.#prefix + taskId;
  }

  /** The owner's ledger and its totals; task ids never hold a colon, so none is mistaken for a task. */
  #ledgerKeys(owner: string): { ledger: string; sum: string; expiry: string } {
    const ledger = `${this.#prefix}owner:${owner}`;
    return { ledger, ...ledgerKeys(ledger) };
  }

  /**
   * The records of `taskIds` in one round trip: null where Redis holds none (its ttl ran out),
   * undefined where it does not open here (task-store.ts: no task at all).
   */
  async #readMany(taskIds: string[]): Promise<Array<TaskRecord | null | undefined>> {
    if (taskIds.length === 0) return [];
    const pipeline = this.#redis.pipeline();
    for (const taskId of taskIds) pipeline.hget(this.#key(taskId), 'body');
    const replies = (await pipeline.exec()) ?? [];
    return taskIds.map((taskId, n) => {
      const [error, body] = replies[n] ?? [];
      if (error) throw error;
      return typeof body === 'string' ? this.#open(taskId, body) : null;
    });
  }

  async #read(taskId: string): Promise<[StoredVersion | undefined, TaskRecord | undefined]> {
    const [rev, body, owner] = await this.#redis.hmget(this.#key(taskId), 'rev', 'body', 'owner');
    if (rev == null || body == null) return [undefined, undefined];
    const record = this.#open(taskId, body);
    if (record) return [{ rev, body }, record];
    // A body that does not open, or opens under another task's id, is no task at all.
    await this.#releaseUnreadable(taskId, rev, body, owner);
    return [undefined, undefined];
  }

  /** The record sealed in `body`, if it opens here and names this task. */
  #open(taskId: string, body: string): TaskRecord | undefined {
    const opened =
      this.#written.recall(taskId, body) ??
      openState(body, this.#keyRing, RECORD_BOUNDS.maxLength, RECORD_BOUNDS.inflationRatio);
    return opened && opened.claims.id === taskId ? (opened.snapshot as TaskRecord) : undefined;
  }

  /**
   * A record that does not open here answers "not found" and never runs here, so it is reported
   * and its owner's live-task slot freed, instead of held for the rest of its ttl. The record is
   * left in place: an instance with another key (a key ring in rotation, or this one's key
   * misconfigured under the same id) cannot tell a foreign record from a corrupt one, and must
   * not delete what others may read. Freeing the slot is idempotent and costs the owner nothing.
   */
  async #releaseUnreadable(taskId: string, rev: string, body: string, owner: string | null | undefined): Promise<void> {
    const kid = body.split('.')[1];
    const known = kid !== undefined && this.#keyRing.find(kid) !== undefined;
    this.#logger.warn(known ? 'task_record_unreadable' : 'task_record_unknown_key', {
      taskId,
      sealedBytes: body.length,
    });
    if (!owner) return;
    const ledger = this.#ledgerKeys(owner);
    await this.#redis
      .batonTaskRelease(this.#key(taskId), ledger.ledger, ledger.sum, ledger.expiry, rev, taskId)
      .catch(() => {});
  }

  /** The record sealed, or a TaskLimitError when it is over the size every instance can read back. */
  #seal(record: TaskRecord): SealedText {
    try {
      const bounds = inFlight(record) ? { ...RECORD_BOUNDS, compressFrom: IN_FLIGHT_COMPRESS_FROM } : RECORD_BOUNDS;
      return sealStateText(
        { claims: this.#claims(record), snapshot: withoutUndefinedFields(record) },
        this.#sealOptions(bounds),
      );
    } catch (error) {
      if (!(error instanceof StateSizeError)) throw error;
      throw recordTooLarge(Math.max(error.sealedLength, error.textLength), RECORD_BOUNDS.maxLength);
    }
  }

  /** What every look-up reads first (task-store.ts, TaskHead): sealed like the body, a few hundred bytes. */
  #sealHead(record: TaskRecord): string {
    const snapshot = { createdAt: record.createdAt, ttlMs: record.ttlMs };
    return sealState(
      { claims: { ...this.#claims(record), asked: [] }, snapshot },
      this.#sealOptions({ maxLength: MAX_SEALED_HEAD }),
    );
  }

  #sealOptions(bounds: { maxLength: number; inflationRatio?: number; compressFrom?: number }) {
    return { keyRing: this.#keyRing, randomBytes: this.#randomBytes, ...bounds };
  }

  /** The claims name the task id, so a body or head moved under another task's key does not open. */
  #claims(record: TaskRecord): SealedContent['claims'] {
    const seconds = (ms: number) => Math.floor(ms / 1000);
    return {
      principal: record.principal,
      target: TARGET_PREFIX + record.tool,
      args: '',
      version: record.version,
      issuedAt: seconds(record.lastUpdatedAt),
      expiresAt: seconds(deleteAfter(record)),
      id: record.taskId,
      round: 0,
      asked: Object.keys(record.asked),
      singleUse: false,
    };
  }
}

/** A record as stored: its revision (for compare-and-set) and its sealed body. */
interface StoredVersion {
  rev: string;
  body: string;
}

/**
 * A record queued for its step or running one is replaced as soon as the step ends, often within
 * milliseconds: it is left uncompressed unless large. Deflate cost 30-70 µs a write under load, on
 * the first of a task's two writes before its first question (bench/tasks), to save a few hundred
 * bytes that Redis holds only that long. A record at rest (idle, or ended) is compressed as before: those
 * are the ones Redis keeps for the task's ttl. Large records are compressed in flight too, so a
 * record's size against its owner's quota does not depend on its phase by more than this.
 */
const IN_FLIGHT_COMPRESS_FROM = 4096;

function inFlight(record: TaskRecord): boolean {
  return !isTerminal(record) && record.phase !== 'idle';
}

/**
 * The record without the fields it holds as `undefined` (a step's `runningJob` once it ended, say):
 * a record's optional fields mean the same absent, and without them the record is plain JSON, which
 * seals as JSON instead of superjson (json-faithful.ts): superjson took a fifth of the sealing time in bench/tasks.
 */
function withoutUndefinedFields(record: TaskRecord): TaskRecord {
  let copy: Record<string, unknown> | undefined;
  for (const key in record) {
    if ((record as unknown as Record<string, unknown>)[key] !== undefined) continue;
    copy ??= { ...record };
    delete copy[key];
  }
  return (copy ?? record) as TaskRecord;
}

/** What travels on the events channel: the kind, a space, the task id (parsed in the constructor). */
function eventMessage(kind: TaskEventKind, taskId: string): string {
  return `${kind} ${taskId}`;
}

const TARGET_PREFIX = 'task ';
/** A head is a task id, a principal digest, a tool name and two numbers. */
const MAX_SEALED_HEAD = 4096;
