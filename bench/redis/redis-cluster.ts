/**
 * A three-master Redis Cluster on loopback (`redis-server --cluster-enabled yes`, joined with
 * `redis-cli --cluster create`), for the tests that run Baton's tasks and single-use guard on a
 * cluster and the high-availability bench; `reshardAwayFrom` moves every slot of one master to
 * another while work runs. Stopped by PID. CI installs redis-server (and redis-cli, in
 * redis-tools) from Debian's packages.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../targets/free-port.js';
import { DURABLE_REDIS, startRedis, type RunningRedis } from './redis-server.js';
import type { RedisProcess } from './redis-sentinel.js';

export interface ClusterOptions {
  /** Append-only with fsync always on every master (default: off). */
  durable?: boolean;
  /** Pins every master with `taskset -c`. */
  cpus?: string | undefined;
}

export interface RunningCluster {
  /** `host:port,…` for BATON_REDIS_CLUSTER. */
  nodes: string;
  ports: number[];
  /** The masters' processes. */
  masters: RedisProcess[];
  /** Moves every slot of the master holding `key` to another master; resolves with how many moved. */
  reshardAwayFrom(key: string): Promise<number>;
  stop(): Promise<void>;
}

function cli(...args: string[]): string {
  const run = spawnSync('redis-cli', args, { encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0) throw new Error(`redis-cli ${args.join(' ')}: ${run.stderr || run.stdout}`);
  return run.stdout;
}

/** A port whose cluster bus port (+10000) is free too. */
async function clusterPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port + 10000 < 65536) return port;
  }
}

export async function startCluster(options: ClusterOptions = {}): Promise<RunningCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'baton-cluster-'));
  const servers: RunningRedis[] = [];
  for (let index = 0; index < 3; index += 1) {
    const port = await clusterPort();
    servers.push(
      await startRedis({
        port,
        cpus: options.cpus,
        args: [
          ...(options.durable ? [...DURABLE_REDIS, '--appendfilename', `node-${index}.aof`] : []),
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(dir, `nodes-${index}.conf`),
          '--dir',
          dir,
        ],
      }),
    );
  }
  const addresses = servers.map((server) => `127.0.0.1:${server.port}`);
  cli('--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes');
  // Ready once every node says the cluster is ok.
  for (const server of servers) {
    const deadline = Date.now() + 20_000;
    while (!/cluster_state:ok/.test(cli('-p', String(server.port), 'cluster', 'info'))) {
      if (Date.now() > deadline) throw new Error('the cluster did not become ok');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return {
    nodes: addresses.join(','),
    ports: servers.map((server) => server.port),
    masters: servers.map(({ port, pid }) => ({ port, pid })),
    async reshardAwayFrom(key: string) {
      const port = servers[0]!.port;
      const slot = Number(cli('-p', String(port), 'cluster', 'keyslot', key).trim());
      const client = new Redis({ port, host: '127.0.0.1' });
      try {
        const shards = (await client.call('CLUSTER', 'SLOTS')) as Array<[number, number, [string, number, string]]>;
        const holder = shards.find(([from, to]) => slot >= from && slot <= to)!;
        const target = shards.find(([, , [, otherPort]]) => otherPort !== holder[2][1])!;
        const moved = shards
          .filter(([, , [, p]]) => p === holder[2][1])
          .reduce((sum, [from, to]) => sum + (to - from + 1), 0);
        cli(
          '--cluster',
          'reshard',
          `127.0.0.1:${port}`,
          '--cluster-from',
          holder[2][2],
          '--cluster-to',
          target[2][2],
          '--cluster-slots',
          String(moved),
          '--cluster-yes',
          '--cluster-pipeline',
          '100',
        );
        return moved;
      } finally {
        client.disconnect();
      }
    },
    async stop() {
      await Promise.all(servers.map((server) => server.stop().catch(() => {})));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
