/**
 * Tasks in Redis, shared by every instance of a fleet. Each task is one hash, `rev` (a counter
 * for compare-and-set) and `body`: the whole record sealed with the key ring in the same envelope
 * as `requestState` (sealed-state.ts), so a Redis dump or a replica reveals nothing, and a body
 * moved under another task's key does not open (the claims name the task id). Events travel on
 * one pub/sub channel. Redis must keep its keys: see docs/tasks.md for the settings.
 */
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import type { KeyRing } from '../state/key-ring.js';
import { openState, sealState } from '../state/sealed-state.js';
import { deleteAfter, type TaskEventKind, type TaskEventListener, type TaskStore } from './task-store.js';
import type { TaskRecord } from './task-record.js';

export interface RedisTaskStoreOptions {
  url: string;
  keyRing: KeyRing;
  /** Key prefix, so several deployments can share one Redis. */
  prefix?: string;
}

/** A record (its snapshot included) may be far larger than a requestState; this only bounds bugs. */
const MAX_SEALED_RECORD = 8 * 1024 * 1024;
const MAX_CAS_ATTEMPTS = 50;

// Creates the hash only if the task does not exist, with its deletion time.
const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'rev', '1', 'body', ARGV[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return 1`;
// Replaces the body only if nobody changed it since it was read.
const COMPARE_AND_SET = `
if redis.call('HGET', KEYS[1], 'rev') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'rev', ARGV[2], 'body', ARGV[3])
return 1`;

export class RedisTaskStore implements TaskStore {
  readonly #redis: Redis;
  readonly #subscriber: Redis;
  readonly #keyRing: KeyRing;
  readonly #prefix: string;
  readonly #channel: string;
  readonly #listeners = new Set<TaskEventListener>();
  #subscribed: Promise<unknown> | undefined;

  constructor(options: RedisTaskStoreOptions) {
    this.#redis = new Redis(options.url, { maxRetriesPerRequest: 2 });
    this.#subscriber = new Redis(options.url, { maxRetriesPerRequest: null });
    // Connection errors surface on each command; without a listener ioredis logs every retry.
    this.#redis.on('error', () => {});
    this.#subscriber.on('error', () => {});
    this.#keyRing = options.keyRing;
    this.#prefix = options.prefix ?? 'baton:task:';
    this.#channel = `${this.#prefix}events`;
    this.#subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.#channel) return;
      const space = message.indexOf(' ');
      const kind = message.slice(0, space) as TaskEventKind;
      const taskId = message.slice(space + 1);
      for (const listener of this.#listeners) listener(taskId, kind);
    });
  }

  async create(record: TaskRecord): Promise<void> {
    const created = await this.#redis.eval(
      CREATE,
      1,
      this.#key(record.taskId),
      this.#seal(record),
      String(deleteAfter(record)),
    );
    if (created !== 1) throw new Error(`task ${record.taskId} exists`);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const [, record] = await this.#read(taskId);
    return record;
  }

  async update(
    taskId: string,
    change: (record: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const [rev, current] = await this.#read(taskId);
      if (!current || rev === undefined) return undefined;
      const next = change(current);
      if (!next) return current;
      const stored = await this.#redis.eval(
        COMPARE_AND_SET,
        1,
        this.#key(taskId),
        rev,
        String(Number(rev) + 1),
        this.#seal(next),
      );
      if (stored === 1) return next;
    }
    throw new Error(`task ${taskId}: too many concurrent changes`);
  }

  async publish(taskId: string, kind: TaskEventKind): Promise<void> {
    await this.#redis.publish(this.#channel, `${kind} ${taskId}`);
  }

  listen(listener: TaskEventListener): () => void {
    this.#subscribed ??= this.#subscriber.subscribe(this.#channel);
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves once this instance receives events (tests wait for it before publishing). */
  async ready(): Promise<void> {
    this.#subscribed ??= this.#subscriber.subscribe(this.#channel);
    await this.#subscribed;
  }

  async close(): Promise<void> {
    this.#listeners.clear();
    this.#redis.disconnect();
    this.#subscriber.disconnect();
  }

  #key(taskId: string): string {
    return this.#prefix + taskId;
  }

  async #read(taskId: string): Promise<[string | undefined, TaskRecord | undefined]> {
    const [rev, body] = await this.#redis.hmget(this.#key(taskId), 'rev', 'body');
    if (rev === null || body === null) return [undefined, undefined];
    const opened = openState(body, this.#keyRing, MAX_SEALED_RECORD);
    // A body that does not open, or opens under another task's id, is treated as no task at all.
    if (!opened || opened.claims.id !== taskId) return [undefined, undefined];
    return [rev, opened.snapshot as TaskRecord];
  }

  #seal(record: TaskRecord): string {
    const seconds = (ms: number) => Math.floor(ms / 1000);
    return sealState(
      {
        claims: {
          principal: record.principal,
          target: `task ${record.tool}`,
          args: '',
          version: record.version,
          issuedAt: seconds(record.lastUpdatedAt),
          expiresAt: seconds(deleteAfter(record)),
          id: record.taskId,
          round: 0,
          asked: Object.keys(record.asked),
          singleUse: false,
        },
        snapshot: record,
      },
      { keyRing: this.#keyRing, randomBytes: (n) => new Uint8Array(randomBytes(n)) },
    );
  }
}
