/**
 * What an operation costs Redis besides CPU: the commands it runs and the bytes it moves, read from
 * `INFO commandstats` and `INFO stats` before and after a phase. Counters, not clocks: they read
 * the same on a loaded machine as on a quiet one, so they compare runs and builds exactly.
 */
import type { Redis } from 'ioredis';

export interface RedisUsage {
  /** Calls by command name (lower case; `evalsha`, `hset`, …), without the INFO reads themselves. */
  calls: Record<string, number>;
  /** Bytes redis-server read from and wrote to its clients. */
  bytesIn: number;
  bytesOut: number;
}

export interface RedisUsagePerOp {
  commands: number;
  bytes: number;
  /** The commands per operation by name, largest first. */
  mix: Array<[command: string, perOp: number]>;
}

export async function readRedisUsage(redis: Redis): Promise<RedisUsage> {
  const commandStats = await redis.info('commandstats');
  const stats = await redis.info('stats');
  const calls: Record<string, number> = {};
  for (const [, name, count] of commandStats.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    if (name !== 'info') calls[name!] = Number(count);
  }
  const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(stats)?.[1] ?? NaN);
  return { calls, bytesIn: field('total_net_input_bytes'), bytesOut: field('total_net_output_bytes') };
}

/** The usage between two readings, per operation of `ops`. */
export function usagePerOp(before: RedisUsage, after: RedisUsage, ops: number): RedisUsagePerOp {
  const mix: Array<[string, number]> = [];
  let commands = 0;
  for (const [name, count] of Object.entries(after.calls)) {
    const delta = count - (before.calls[name] ?? 0);
    if (delta <= 0) continue;
    commands += delta;
    mix.push([name, delta / ops]);
  }
  mix.sort((a, b) => b[1] - a[1]);
  const bytes = after.bytesIn - before.bytesIn + (after.bytesOut - before.bytesOut);
  return { commands: commands / ops, bytes: bytes / ops, mix };
}

/** `23.0 commands, 4.1 kB (evalsha 5.0, hset 3.0, …)`: the figures and the six largest commands. */
export function redisUsageText(usage: RedisUsagePerOp): string {
  const mix = usage.mix
    .slice(0, 6)
    .map(([name, perOp]) => `${name} ${perOp.toFixed(1)}`)
    .join(', ');
  const more = usage.mix.length > 6 ? ', …' : '';
  return `${usage.commands.toFixed(1)} commands, ${(usage.bytes / 1000).toFixed(1)} kB (${mix}${more})`;
}
