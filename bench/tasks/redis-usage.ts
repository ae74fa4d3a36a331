/**
 * What an operation costs Redis besides CPU: the commands it runs, the bytes it moves and the reads
 * of its clients' sockets it takes, from `INFO commandstats` and `INFO stats` before and after a
 * phase. Counters, not clocks: they read the same on a loaded machine as on a quiet one, so they
 * compare runs and builds exactly.
 *
 * A read is one wake-up of redis-server for one client's input, however many commands it brought:
 * the round trips as Redis sees them, each paying a syscall and a reply's write beside its commands.
 * Commands pipelined on one connection arrive in fewer reads than commands sent one by one.
 */
import type { Redis } from 'ioredis';

export interface RedisUsage {
  /** Calls by command name (lower case; `evalsha`, `hset`, …), without the INFO reads themselves. */
  calls: Record<string, number>;
  /** Bytes redis-server read from and wrote to its clients. */
  bytesIn: number;
  bytesOut: number;
  /** Reads of client sockets redis-server processed (`total_reads_processed`). */
  reads: number;
  /** Of those, the reads this reading's own INFO commands took, left out of a phase's count. */
  probeReads: number;
}

export interface RedisUsagePerOp {
  commands: number;
  bytes: number;
  /** Socket reads (round trips as Redis sees them); NaN where Redis does not count them. */
  reads: number;
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
  return {
    calls,
    bytesIn: field('total_net_input_bytes'),
    bytesOut: field('total_net_output_bytes'),
    reads: field('total_reads_processed'),
    probeReads: 2,
  };
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
  const reads = after.reads - before.reads - after.probeReads;
  return { commands: commands / ops, bytes: bytes / ops, reads: reads / ops, mix };
}

/** `23.0 commands, 4.1 kB, 6.0 reads (evalsha 5.0, hset 3.0, …)`: the figures and the six largest commands. */
export function redisUsageText(usage: RedisUsagePerOp): string {
  const mix = usage.mix
    .slice(0, 6)
    .map(([name, perOp]) => `${name} ${perOp.toFixed(1)}`)
    .join(', ');
  const more = usage.mix.length > 6 ? ', …' : '';
  const reads = Number.isFinite(usage.reads) ? `, ${usage.reads.toFixed(1)} reads` : '';
  return `${usage.commands.toFixed(1)} commands, ${(usage.bytes / 1000).toFixed(1)} kB${reads} (${mix}${more})`;
}
