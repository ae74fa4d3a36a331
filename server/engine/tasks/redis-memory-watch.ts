/**
 * Reads Redis's memory use now and then, so new tasks are refused before Redis is full. Redis
 * must run `noeviction` (docs/tasks.md), so a full Redis refuses every write: the single-use
 * guard, BullMQ and the tasks already running would all fail with it. Refusing new tasks at a
 * fraction of `maxmemory` keeps the rest of it for them.
 */
import type { RedisConnection as Redis } from '../redis-target.js';
import { TaskLimitError } from './task-quotas.js';

export const DEFAULT_MAX_MEMORY_FRACTION = 0.8;

export interface MemoryReading {
  used: number;
  /** 0 when Redis has no `maxmemory`: then there is no limit to measure against. */
  max: number;
}

/** `used_memory` and `maxmemory` from the text of `INFO memory`. */
export function parseMemoryInfo(info: string): MemoryReading {
  const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  return { used: field('used_memory'), max: field('maxmemory') };
}

export class RedisMemoryWatch {
  readonly #redis: Redis;
  readonly #maxFraction: number;
  readonly #intervalMs: number;
  #timer: NodeJS.Timeout | undefined;
  #last: MemoryReading | undefined;

  constructor(redis: Redis, options: { maxFraction: number; intervalMs: number }) {
    this.#redis = redis;
    this.#maxFraction = options.maxFraction;
    this.#intervalMs = options.intervalMs;
  }

  start(): void {
    if (this.#timer) return;
    void this.read();
    this.#timer = setInterval(() => void this.read(), this.#intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Reads Redis's memory now (the timer does this every interval); a failed read keeps the last. */
  async read(): Promise<MemoryReading | undefined> {
    try {
      this.#last = parseMemoryInfo(await this.#redis.info('memory'));
    } catch {
      // Redis unreachable: creating the task fails on its own, with the store's error.
    }
    return this.#last;
  }

  /** The refusal of a new task while Redis is over the fraction of its maxmemory, else undefined. */
  refusal(): TaskLimitError | undefined {
    const reading = this.#last;
    if (!reading || reading.max === 0 || reading.used < reading.max * this.#maxFraction) return undefined;
    return new TaskLimitError(
      'task_store_full',
      `Server busy: the task store (Redis) uses ${reading.used} of its ${reading.max} bytes; new tasks wait until it has room`,
      'instance',
    );
  }
}
