/**
 * The three Redis set-ups the high-availability bench measures side by side, all on loopback and
 * all with the same persistence: one Redis, a Sentinel set (a master, two replicas, three
 * sentinels; Baton connects through the sentinels) and a three-master cluster. Each says which of
 * its processes are masters, replicas and sentinels now, for their CPU and their counters.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { RedisTarget } from '../../server/engine/index.js';
import {
  DURABLE_REDIS,
  SENTINEL_NAME,
  startCluster,
  startRedis,
  startSentinelSet,
  type RedisProcess,
  type RunningSentinelSet,
} from '../redis/index.js';

export type TopologyKind = 'redis' | 'sentinel' | 'cluster';

export interface TopologyProcesses {
  masters: RedisProcess[];
  replicas: RedisProcess[];
  sentinels: RedisProcess[];
}

export interface Topology {
  kind: TopologyKind;
  target: RedisTarget;
  processes(): Promise<TopologyProcesses>;
  /** The Sentinel set itself, for the failover. */
  sentinelSet?: RunningSentinelSet;
  stop(): Promise<void>;
}

export interface TopologyOptions {
  /** Append-only with fsync always on every data node. */
  durable: boolean;
  /** Pins every Redis process with `taskset -c` (the server core). */
  cpus?: string | undefined;
}

export async function startSingle(options: TopologyOptions): Promise<Topology> {
  const dir = mkdtempSync(join(tmpdir(), 'baton-ha-redis-'));
  const redis = await startRedis({ cpus: options.cpus, args: options.durable ? [...DURABLE_REDIS, '--dir', dir] : [] });
  return {
    kind: 'redis',
    target: redis.url,
    processes: async () => ({ masters: [{ port: redis.port, pid: redis.pid }], replicas: [], sentinels: [] }),
    async stop() {
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function startSentinel(options: TopologyOptions): Promise<Topology> {
  const set = await startSentinelSet(options);
  return {
    kind: 'sentinel',
    target: { sentinels: set.nodes, name: SENTINEL_NAME },
    sentinelSet: set,
    async processes() {
      const { master, replicas, sentinels } = await set.roles();
      return { masters: [master], replicas, sentinels };
    },
    stop: () => set.stop(),
  };
}

export async function startThreeMasters(options: TopologyOptions): Promise<Topology> {
  const cluster = await startCluster(options);
  return {
    kind: 'cluster',
    target: { cluster: cluster.ports.map((port) => ({ host: '127.0.0.1', port })) },
    processes: async () => ({ masters: cluster.masters, replicas: [], sentinels: [] }),
    stop: () => cluster.stop(),
  };
}

/** Starts each set-up in turn; on a failure, stops those already started. */
export async function startTopologies(options: TopologyOptions): Promise<Topology[]> {
  const started: Topology[] = [];
  try {
    for (const start of [startSingle, startSentinel, startThreeMasters]) started.push(await start(options));
    return started;
  } catch (error) {
    await Promise.all(started.map((topology) => topology.stop().catch(() => {})));
    throw error;
  }
}

/** For a cluster: the index of the master (in `processes().masters`) holding each key's slot. */
export async function clusterHolders(topology: Topology, keys: string[]): Promise<number[]> {
  const { masters } = await topology.processes();
  const client = new Redis({ host: '127.0.0.1', port: masters[0]!.port });
  client.on('error', () => {});
  try {
    const shards = (await client.call('CLUSTER', 'SLOTS')) as Array<[number, number, [string, number]]>;
    const holders: number[] = [];
    for (const key of keys) {
      const slot = Number(await client.call('CLUSTER', 'KEYSLOT', key));
      const shard = shards.find(([from, to]) => slot >= from && slot <= to);
      holders.push(masters.findIndex(({ port }) => port === shard?.[2][1]));
    }
    return holders;
  } finally {
    client.disconnect();
  }
}
