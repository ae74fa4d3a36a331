/**
 * The high-availability bench (issue 43): tasks per second and single-use rounds per second on one
 * Redis, on a Sentinel set (with the guard's WAIT for a replica, its default there, and without)
 * and on a three-master cluster, side by side in one run, then a master's death on the Sentinel
 * set with work in flight. All three set-ups run at once, idle but for the one measured; each
 * repetition measures every set-up in turn, the order reversed every other repetition so a slow
 * drift of the machine's load falls on all of them alike.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { KeyRing } from '../../server/engine/index.js';
import { CLUSTER_QUEUE_PREFIX } from '../../server/engine/redis-target.js';
import { HaClient } from './ha-client.js';
import { measureFailover, type FailoverFigures } from './ha-failover.js';
import { HA_CLIENTS, measureSingleUse, measureTasks, type WindowFigures } from './ha-measure.js';
import { startHaServer } from './ha-server.js';
import { clusterHolders, startTopologies, type Topology, type TopologyKind } from './ha-topologies.js';
import { UsageProbe } from './ha-usage.js';

export interface HaBenchOptions {
  /** Each measured window, in seconds. */
  seconds: number;
  reps: number;
  /** Append-only with fsync always on every data node (the guard's advice for production). */
  durable: boolean;
  /** Work on the Sentinel set before its master is killed, in seconds. */
  failoverBefore: number;
  /** Pins every Redis process (`taskset -c`): the server core. */
  redisCpus?: string | undefined;
  log?: (line: string) => void;
}

/** One Baton on one set-up. */
export interface HaSetup {
  topology: TopologyKind;
  /** Replicas a single-use claim waits for (BATON_REDIS_WAIT_REPLICAS). */
  waitReplicas: number;
  /** Whether its tasks are measured (WAIT concerns the guard only: tasks are measured once a set-up). */
  measuresTasks: boolean;
}

export const HA_SETUPS: HaSetup[] = [
  { topology: 'redis', waitReplicas: 0, measuresTasks: true },
  { topology: 'sentinel', waitReplicas: 1, measuresTasks: true },
  { topology: 'sentinel', waitReplicas: 0, measuresTasks: false },
  { topology: 'cluster', waitReplicas: 0, measuresTasks: true },
];

export interface HaSetupResult extends HaSetup {
  /** One window a repetition. */
  tasks: WindowFigures[];
  singleUse: WindowFigures[];
}

export interface HaReport {
  options: Omit<HaBenchOptions, 'log'>;
  setups: HaSetupResult[];
  failover: FailoverFigures;
  /** Which cluster master (its index, 0-2) holds each concern's hash slot. */
  clusterPlacement: Record<string, number>;
  loadAtStart: number;
  loadAtEnd: number;
  seconds: number;
}

/** The keys of each concern in a cluster (docs/deploy.md, "Redis Cluster: where the keys go"). */
const CONCERNS: Record<string, string> = {
  'task records': 'baton:{task}:x',
  'single-use claims': 'baton:{state}:x',
  'BullMQ queue': `${CLUSTER_QUEUE_PREFIX}:baton-tasks:x`,
};

export function setupName(setup: HaSetup): string {
  if (setup.topology === 'redis') return 'one Redis';
  if (setup.topology === 'cluster') return 'cluster, 3 masters';
  return `Sentinel, ${setup.waitReplicas ? `WAIT ${setup.waitReplicas}` : 'no WAIT'}`;
}

function figuresText(what: string, f: WindowFigures): string {
  const cost = f.cost;
  const redis = cost
    ? `; Redis CPU µs/op masters ${cost.redisCpuMicros.masters?.toFixed(0) ?? '–'}` +
      (cost.redisCpuMicros.replicas ? `, replicas ${cost.redisCpuMicros.replicas.toFixed(0)}` : '') +
      `, ${cost.redis.commands.toFixed(1)} commands; Node ${cost.nodeCpuMicros.toFixed(0)} µs/op`
    : '';
  const errors = f.errors ? `; ${f.errors} ERRORS: ${f.errorSamples.join('; ')}` : '';
  return `${what} ${f.perSecond.toFixed(0)}/s, p50 ${f.p50Ms.toFixed(1)} p99 ${f.p99Ms.toFixed(1)} ms${redis}${errors}`;
}

async function measureSetup(
  topology: Topology,
  setup: HaSetup,
  keyRing: KeyRing,
  seconds: number,
): Promise<{ tasks?: WindowFigures; singleUse: WindowFigures }> {
  const server = await startHaServer(topology.target, keyRing, { waitReplicas: setup.waitReplicas });
  const client = new HaClient(server.url, HA_CLIENTS * 2);
  const probe = await UsageProbe.open(topology);
  try {
    // Warm-up: the first task and the first claim on this Baton load scripts and open connections.
    if (setup.measuresTasks) await measureTasks(client, 0.3);
    await measureSingleUse(client, 0.3);
    const tasks = setup.measuresTasks ? await measureTasks(client, seconds, probe) : undefined;
    const singleUse = await measureSingleUse(client, seconds, probe);
    return { ...(tasks ? { tasks } : {}), singleUse };
  } finally {
    probe.close();
    client.close();
    await server.close();
  }
}

export async function runHaBench(options: HaBenchOptions): Promise<HaReport> {
  const log = options.log ?? (() => {});
  const started = performance.now();
  const loadAtStart = os.loadavg()[0]!;
  const keyRing = new KeyRing([{ id: 'bench-ha', secret: new Uint8Array(randomBytes(32)) }]);
  const topologies = await startTopologies({ durable: options.durable, cpus: options.redisCpus });
  const byKind = (kind: TopologyKind) => topologies.find((topology) => topology.kind === kind)!;
  try {
    const placement = await clusterHolders(byKind('cluster'), Object.values(CONCERNS));
    const clusterPlacement = Object.fromEntries(Object.keys(CONCERNS).map((name, i) => [name, placement[i]!]));
    log(
      `cluster: ${Object.entries(clusterPlacement)
        .map(([name, master]) => `${name} on master ${master + 1}`)
        .join(', ')}`,
    );
    // Not counted: the first windows of this process run before its code is hot.
    log('warm-up on one Redis…');
    await measureSetup(byKind('redis'), HA_SETUPS[0]!, keyRing, options.seconds / 2);
    const results: HaSetupResult[] = HA_SETUPS.map((setup) => ({ ...setup, tasks: [], singleUse: [] }));
    for (let rep = 0; rep < options.reps; rep += 1) {
      const order = rep % 2 === 0 ? results : [...results].reverse();
      for (const result of order) {
        const figures = await measureSetup(byKind(result.topology), result, keyRing, options.seconds);
        const name = `rep ${rep + 1} ${setupName(result)}:`.padEnd(28);
        if (figures.tasks) {
          result.tasks.push(figures.tasks);
          log(`${name} ${figuresText('tasks', figures.tasks)}`);
        }
        result.singleUse.push(figures.singleUse);
        log(`${name} ${figuresText('single-use rounds', figures.singleUse)}`);
      }
    }
    const sentinel = byKind('sentinel');
    const server = await startHaServer(sentinel.target, keyRing);
    const client = new HaClient(server.url, 32);
    let failover: FailoverFigures;
    try {
      log(`failover: ${options.failoverBefore} s of work, then SIGKILL of the Sentinel set's master…`);
      failover = await measureFailover(client, sentinel.sentinelSet!, { before: options.failoverBefore });
    } finally {
      client.close();
      await server.close();
    }
    log(
      `failover: promoted in ${failover.promotionMs} ms; first task step completed ${failover.firstStepMs ?? '–'} ms ` +
        `after the kill (seen ${failover.firstStepSeenMs ?? '–'} ms); first task created ${failover.firstCreateMs ?? '–'} ms, ` +
        `first single-use round ${failover.firstSingleUseMs ?? '–'} ms after it; the last task in flight at the kill ended ` +
        `${failover.lastInFlightMs ?? '–'} ms after it; tasks ${JSON.stringify(failover.tasks)}, ` +
        `single-use ${JSON.stringify(failover.singleUse)}`,
    );
    const { log: _log, ...kept } = options;
    return {
      options: kept,
      setups: results,
      failover,
      clusterPlacement,
      loadAtStart,
      loadAtEnd: os.loadavg()[0]!,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await Promise.all(topologies.map((topology) => topology.stop().catch(() => {})));
  }
}
