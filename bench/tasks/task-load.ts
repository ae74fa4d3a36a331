/**
 * The task benchmark's load: 16 workers in this process call one operation again and again for a
 * few seconds. Besides its rate and latency, what it cost: this process's CPU per operation (the
 * client and, for Baton, the server, which run here together), and Redis's, read from /proc.
 */
import { performance } from 'node:perf_hooks';
import type { Redis } from 'ioredis';
import { procUsage } from '../targets/proc-usage.js';
import { profilePhase } from './phase-profiler.js';
import { readRedisUsage, usagePerOp, type RedisUsagePerOp } from './redis-usage.js';

export const TASK_CLIENTS = 16;

export interface OpFigures {
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** CPU of this process (user + system) per successful operation, in µs. */
  cpuMicrosPerOp?: number;
  /** CPU of redis-server per successful operation, in µs (with Redis, where /proc can be read). */
  redisCpuMicrosPerOp?: number;
  /** Commands and bytes redis-server served per successful operation (with Redis). */
  redisPerOp?: RedisUsagePerOp;
}

/** The Redis an operation runs against: its PID for CPU, a client for its command counters. */
export interface RedisProbe {
  pid?: number | undefined;
  client?: Redis;
}

export function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function redisCpu(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const { cpu } = procUsage(pid);
    return cpu.user + cpu.system;
  } catch {
    return undefined;
  }
}

/**
 * Runs `one` from 16 workers for `seconds`; each call resolves true when it succeeded. A `phase`
 * name profiles the run when BENCH_TASKS_CPU_PROF asks for it (phase-profiler.ts). `settle`, when
 * given, is awaited after the window and before the CPU and Redis counters are read: work the
 * operations left running (a created task's first step on the worker) is counted as theirs, and
 * not as the next phase's.
 */
export function load(
  seconds: number,
  one: (n: number) => Promise<boolean>,
  redis?: RedisProbe,
  phase?: string,
  settle?: () => Promise<void>,
): Promise<OpFigures> {
  const run = () => measureLoad(seconds, one, redis, settle);
  return phase ? profilePhase(phase, run) : run();
}

async function measureLoad(
  seconds: number,
  one: (n: number) => Promise<boolean>,
  redis: RedisProbe | undefined,
  settle: (() => Promise<void>) | undefined,
): Promise<OpFigures> {
  const latencies: number[] = [];
  let errors = 0;
  let counter = 0;
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const usageStart = redis?.client ? await readRedisUsage(redis.client) : undefined;
  const redisStart = redisCpu(redis?.pid);
  await Promise.all(
    Array.from({ length: TASK_CLIENTS }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const ok = await one(counter++).catch(() => false);
        latencies.push(performance.now() - t0);
        if (!ok) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await settle?.();
  const cpu = process.cpuUsage(cpuStart);
  const redisEnd = redisCpu(redis?.pid);
  const usageEnd = redis?.client ? await readRedisUsage(redis.client) : undefined;
  latencies.sort((a, b) => a - b);
  const done = latencies.length - errors;
  return {
    perSecond: done / elapsed,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    errors,
    ...(done > 0 ? { cpuMicrosPerOp: (cpu.user + cpu.system) / done } : {}),
    ...(done > 0 && redisStart !== undefined && redisEnd !== undefined
      ? { redisCpuMicrosPerOp: (redisEnd - redisStart) / done }
      : {}),
    ...(done > 0 && usageStart && usageEnd ? { redisPerOp: usagePerOp(usageStart, usageEnd, done) } : {}),
  };
}
