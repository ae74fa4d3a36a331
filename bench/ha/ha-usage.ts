/**
 * What an operation cost on each set-up, read around a measured window: the CPU of this process
 * (the clients and Baton, which run here together), the CPU of the Redis processes by role, read
 * from /proc (masters, replicas and sentinels apart: a replica's CPU is the price of the copy, not
 * of the work), and the commands and bytes the masters served, from their own counters
 * (redis-usage.ts), summed over a cluster's masters.
 */
import { Redis } from 'ioredis';
import { procUsage } from '../targets/proc-usage.js';
import { readRedisUsage, usagePerOp, type RedisUsage, type RedisUsagePerOp } from '../tasks/redis-usage.js';
import type { Topology, TopologyProcesses } from './ha-topologies.js';

type Role = keyof TopologyProcesses;
const ROLES: Role[] = ['masters', 'replicas', 'sentinels'];

interface UsageReading {
  node: NodeJS.CpuUsage;
  /** µs of CPU by role; a role is missing when /proc could not be read for one of its processes. */
  redisCpu: Partial<Record<Role, number>>;
  /** µs of CPU of each master, in order (a cluster's load by master). */
  mastersEach: number[] | undefined;
  counters: RedisUsage;
}

export interface CostPerOp {
  /** CPU of this process (clients and Baton) per operation, µs. */
  nodeCpuMicros: number;
  /** CPU of the Redis processes per operation by role, µs (where /proc could be read). */
  redisCpuMicros: Partial<Record<Role, number>>;
  /** The masters' CPU per operation one by one, µs. */
  mastersEachMicros: number[] | undefined;
  /** Commands and bytes the masters served per operation. */
  redis: RedisUsagePerOp;
}

function cpuOf(processes: Array<{ pid: number }>): number | undefined {
  try {
    return processes.reduce((sum, { pid }) => {
      const { cpu } = procUsage(pid);
      return sum + cpu.user + cpu.system;
    }, 0);
  } catch {
    return undefined;
  }
}

function sum(readings: RedisUsage[]): RedisUsage {
  const calls: Record<string, number> = {};
  for (const reading of readings) {
    for (const [name, count] of Object.entries(reading.calls)) calls[name] = (calls[name] ?? 0) + count;
  }
  return {
    calls,
    bytesIn: readings.reduce((total, reading) => total + reading.bytesIn, 0),
    bytesOut: readings.reduce((total, reading) => total + reading.bytesOut, 0),
    reads: readings.reduce((total, reading) => total + reading.reads, 0),
    probeReads: readings.reduce((total, reading) => total + reading.probeReads, 0),
  };
}

/** A probe of one set-up as it is now: its processes by role and a connection of its own to each master. */
export class UsageProbe {
  readonly #processes: TopologyProcesses;
  readonly #masters: Redis[];

  private constructor(processes: TopologyProcesses) {
    this.#processes = processes;
    // Their own connections, straight to each master: the INFO reads are left out of what is counted.
    this.#masters = processes.masters.map(({ port }) => {
      const client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1 });
      client.on('error', () => {});
      return client;
    });
  }

  static async open(topology: Topology): Promise<UsageProbe> {
    return new UsageProbe(await topology.processes());
  }

  async read(): Promise<UsageReading> {
    const counters = sum(await Promise.all(this.#masters.map((client) => readRedisUsage(client))));
    const redisCpu: Partial<Record<Role, number>> = {};
    for (const role of ROLES) {
      const cpu = cpuOf(this.#processes[role]);
      if (cpu !== undefined) redisCpu[role] = cpu;
    }
    const each = this.#processes.masters.map((master) => cpuOf([master]));
    const mastersEach = each.every((cpu) => cpu !== undefined) ? (each as number[]) : undefined;
    return { node: process.cpuUsage(), redisCpu, mastersEach, counters };
  }

  /** What `ops` operations between two readings cost each. */
  static perOp(before: UsageReading, after: UsageReading, ops: number): CostPerOp {
    const nodeCpu = after.node.user - before.node.user + (after.node.system - before.node.system);
    const redisCpuMicros: Partial<Record<Role, number>> = {};
    for (const role of ROLES) {
      const start = before.redisCpu[role];
      const end = after.redisCpu[role];
      if (start !== undefined && end !== undefined) redisCpuMicros[role] = (end - start) / ops;
    }
    const [first, last] = [before.mastersEach, after.mastersEach];
    return {
      nodeCpuMicros: nodeCpu / ops,
      redisCpuMicros,
      mastersEachMicros: first && last ? last.map((cpu, i) => (cpu - first[i]!) / ops) : undefined,
      redis: usagePerOp(before.counters, after.counters, ops),
    };
  }

  close(): void {
    for (const client of this.#masters) client.disconnect();
  }
}
