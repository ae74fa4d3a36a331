/**
 * A Redis Sentinel set on loopback for failover tests and the high-availability bench: a master,
 * two replicas of it (so a replica is left to confirm single-use claims after one failover:
 * BATON_REDIS_WAIT_REPLICAS), and three sentinels (Debian's `redis-server` in sentinel mode)
 * watching it as `baton`, tuned to notice a dead master in a second. Everything is stopped by PID;
 * `killMaster` SIGKILLs the current master and waits until the sentinels name another.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../targets/free-port.js';
import { DURABLE_REDIS, startRedis, type RunningRedis } from './redis-server.js';

export const SENTINEL_NAME = 'baton';

/** One process of a set, for reading its CPU from /proc. */
export interface RedisProcess {
  port: number;
  pid: number;
}

export interface SentinelSetOptions {
  /** Append-only with fsync always on every data node (default: on). */
  durable?: boolean;
  /** Pins every process with `taskset -c`. */
  cpus?: string | undefined;
}

export interface RunningSentinelSet {
  /** `host:port,…` for BATON_REDIS_SENTINELS. */
  sentinels: string;
  nodes: Array<{ host: string; port: number }>;
  /** The port of the master the sentinels name now. */
  masterPort(): Promise<number>;
  /** The processes by what they are now: the master, the replicas still alive, the sentinels. */
  roles(): Promise<{ master: RedisProcess; replicas: RedisProcess[]; sentinels: RedisProcess[] }>;
  /**
   * SIGKILLs the master; resolves with when (ms since the epoch) and the milliseconds until the
   * sentinels named the promoted replica (asked every 100 ms).
   */
  killMaster(): Promise<{ killedAt: number; promotionMs: number }>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

export async function startSentinelSet(options: SentinelSetOptions = {}): Promise<RunningSentinelSet> {
  // Appendonly with fsync always by default: what the single-use guard asks of a production Redis.
  const durable = options.durable === false ? [] : DURABLE_REDIS;
  const cpus = options.cpus;
  const dir = mkdtempSync(join(tmpdir(), 'baton-sentinel-'));
  const master = await startRedis({ cpus, args: [...durable, '--dir', dir, '--appendfilename', 'master.aof'] });
  const replicas: RunningRedis[] = [];
  for (const name of ['replica-1', 'replica-2']) {
    const aof = ['--appendfilename', `${name}.aof`];
    replicas.push(
      await startRedis({
        cpus,
        args: [...durable, '--dir', dir, ...aof, '--replicaof', '127.0.0.1', String(master.port)],
      }),
    );
  }
  const servers: RunningRedis[] = [master, ...replicas];
  const killed = new Set<number>();
  const sentinels: ChildProcess[] = [];
  const nodes: Array<{ host: string; port: number }> = [];
  for (let index = 0; index < 3; index += 1) {
    const port = await freePort();
    const config = join(dir, `sentinel-${index}.conf`);
    writeFileSync(
      config,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${SENTINEL_NAME} 127.0.0.1 ${master.port} 2`,
        `sentinel down-after-milliseconds ${SENTINEL_NAME} 1000`,
        `sentinel failover-timeout ${SENTINEL_NAME} 5000`,
        `sentinel parallel-syncs ${SENTINEL_NAME} 1`,
        '',
      ].join('\n'),
    );
    const [command, args] = cpus
      ? ['taskset', ['-c', cpus, 'redis-server', config, '--sentinel']]
      : ['redis-server', [config, '--sentinel']];
    sentinels.push(spawn(command, args, { stdio: 'ignore' }));
    nodes.push({ host: '127.0.0.1', port });
  }
  const ask = async (port: number) => {
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
    client.on('error', () => {});
    try {
      await client.connect();
      const [, masterPort] = (await client.call('SENTINEL', 'get-master-addr-by-name', SENTINEL_NAME)) as [
        string,
        string,
      ];
      return Number(masterPort);
    } finally {
      client.disconnect();
    }
  };
  const masterPort = () => ask(nodes[0]!.port);
  // Ready once every sentinel names the master and the replica has synced.
  for (const node of nodes)
    await waitFor(`sentinel ${node.port}`, async () => ((await ask(node.port)) ? true : undefined));
  for (const replica of replicas) {
    const probe = new Redis({ port: replica.port, host: '127.0.0.1' });
    probe.on('error', () => {});
    await waitFor('the replica to sync', async () =>
      /master_link_status:up/.test(await probe.info('replication')) ? true : undefined,
    );
    probe.disconnect();
  }
  return {
    sentinels: nodes.map(({ host, port }) => `${host}:${port}`).join(','),
    nodes,
    masterPort,
    async roles() {
      const current = await masterPort();
      const alive = servers.filter((server) => !killed.has(server.pid));
      const processOf = ({ port, pid }: RunningRedis): RedisProcess => ({ port, pid });
      return {
        master: processOf(alive.find((server) => server.port === current)!),
        replicas: alive.filter((server) => server.port !== current).map(processOf),
        sentinels: sentinels.map((sentinel, index) => ({ port: nodes[index]!.port, pid: sentinel.pid! })),
      };
    },
    async killMaster() {
      const current = await masterPort();
      const dying = servers.find((server) => server.port === current)!;
      killed.add(dying.pid);
      const killedAt = Date.now();
      process.kill(dying.pid, 'SIGKILL');
      await waitFor(
        'the sentinels to promote the replica',
        async () => {
          const now = await masterPort();
          return now !== current ? now : undefined;
        },
        30_000,
      );
      return { killedAt, promotionMs: Date.now() - killedAt };
    },
    async stop() {
      for (const sentinel of sentinels) if (sentinel.exitCode === null) sentinel.kill('SIGKILL');
      await Promise.all(servers.map((server) => server.stop().catch(() => {})));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
