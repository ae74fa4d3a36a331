/**
 * The report's task section: task creations and `tasks/get` per second, in memory and with Redis
 * and BullMQ, with what each costs in CPU, and Baton's tasks against their floor on the same Redis
 * (bench/tasks/task-floor.ts), followed by bench/report/tasks-profile.md: where the difference
 * goes, written by hand from CPU profiles of the same phases.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RunRecord } from '../run-matrix.js';
import type { OpFigures } from '../tasks/task-load.js';
import type { TaskThroughput } from '../tasks/task-throughput.js';
import { n, table } from './markdown-table.js';
import { metrics, spread } from './summary.js';

const times = (value: number) => (Number.isFinite(value) ? `${value.toFixed(value < 0.1 ? 3 : 2)}x` : '–');

function cpu(figures: OpFigures): string {
  const own = n(figures.cpuMicrosPerOp ?? NaN);
  return figures.redisCpuMicrosPerOp === undefined ? own : `${own} / ${n(figures.redisCpuMicrosPerOp)}`;
}

/** One row of the floor table: Baton's operation against the floor's, rate and CPU. */
export function floorRow(what: string, floorWhat: string, baton: OpFigures, floor: OpFigures): string[] {
  const ratio = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined ? '–' : times(a / b);
  return [
    what,
    floorWhat,
    `${n(baton.perSecond)} / ${n(floor.perSecond)}`,
    `**${times(baton.perSecond / floor.perSecond)}**`,
    `${n(baton.cpuMicrosPerOp ?? NaN)} / ${n(floor.cpuMicrosPerOp ?? NaN)} (${ratio(baton.cpuMicrosPerOp, floor.cpuMicrosPerOp)})`,
    `${n(baton.redisCpuMicrosPerOp ?? NaN)} / ${n(floor.redisCpuMicrosPerOp ?? NaN)} (${ratio(baton.redisCpuMicrosPerOp, floor.redisCpuMicrosPerOp)})`,
    `${n(baton.redisPerOp?.commands ?? NaN, 1)} / ${n(floor.redisPerOp?.commands ?? NaN, 1)} (${ratio(baton.redisPerOp?.commands, floor.redisPerOp?.commands)})`,
    `${n(baton.redisPerOp?.bytes ?? NaN)} / ${n(floor.redisPerOp?.bytes ?? NaN)} (${ratio(baton.redisPerOp?.bytes, floor.redisPerOp?.bytes)})`,
    `${n(baton.redisPerOp?.reads ?? NaN, 2)} / ${n(floor.redisPerOp?.reads ?? NaN, 2)}`,
  ];
}

/** Which commands an operation sends, per operation: where a shrink of its Redis cost would come from. */
function commandMix(what: string, figures: OpFigures): string {
  const mix = figures.redisPerOp?.mix;
  if (!mix || mix.length === 0) return '';
  return `- ${what}: ${mix.map(([name, perOp]) => `\`${name}\` ${perOp.toFixed(2)}`).join(', ')}`;
}

/**
 * Issue 44, item 4: the figures as capacity. One Redis core serves 1 s of Redis CPU a second, so
 * it carries 10^6 / (Redis µs per operation) operations a second for the whole fleet; one core of
 * this process, 10^6 / (its µs per operation), the bench's client included (so a floor on what a
 * Baton core does); their ratio is how many one-core instances a Redis core keeps busy.
 */
export function capacityPart(redis: TaskThroughput): string {
  const line = (what: string, figures: OpFigures) => {
    const redisCpu = figures.redisCpuMicrosPerOp;
    const ownCpu = figures.cpuMicrosPerOp;
    if (redisCpu === undefined || ownCpu === undefined || redisCpu <= 0 || ownCpu <= 0) return undefined;
    return [what, n(1e6 / redisCpu), n(1e6 / ownCpu), n(ownCpu / redisCpu, 1)];
  };
  const rows = [line('create a task (`tools/call`)', redis.creates), line('`tasks/get`', redis.gets)].filter(
    (row): row is string[] => row !== undefined,
  );
  if (rows.length === 0) return '';
  return `### What it means for a fleet

The same figures as capacity: a Redis core spends 1 s of CPU a second, so it carries 10^6 / (Redis
µs per operation) operations a second for the whole fleet, however many instances it has; a core of
Baton's, at least 10^6 / (this process's µs per operation), the bench's client being counted in this
process too. Their ratio is how many one-core instances one Redis core keeps busy with that
operation alone before it saturates. Rounds of flows need no Redis at all (their state travels
sealed in \`requestState\`) unless single-use: those cost Redis one script a round (\`npm run
bench:ha\`).

${table(['operation', 'per second per Redis core', 'per second per Baton core (at least)', 'Baton cores one Redis core carries'], rows)}`;
}

function tasksProfile(): string {
  for (const relative of ['../../../bench/report/tasks-profile.md', './tasks-profile.md']) {
    try {
      return readFileSync(fileURLToPath(new URL(relative, import.meta.url)), 'utf8').trim();
    } catch {
      // Not there: the other place, or none.
    }
  }
  return '';
}

export function tasksSection(tasks: TaskThroughput[] | undefined, records: RunRecord[]): string {
  if (!tasks || tasks.length === 0) return '';
  const rows = tasks.map((t) => [
    t.store === 'redis' ? 'Redis + BullMQ' : 'in memory',
    n(t.creates.perSecond),
    n(t.creates.p99Ms, 1),
    cpu(t.creates),
    n(t.gets.perSecond),
    n(t.gets.p99Ms, 1),
    cpu(t.gets),
  ]);
  const redis = tasks.find((t) => t.floor);
  const floorKoa = spread(records.filter((r) => r.target === 'floor').map(metrics.serverCpu)).median;
  const floorPart = redis?.floor
    ? `### Against their floor on the same Redis

What the same bench reaches on the same Redis (and the same core) with nothing of Baton in the way,
driven by the same 16 clients in the same process (\`bench/tasks/task-floor.ts\`): for creating a
task, BullMQ adding an empty job (with the options Baton's queue adds with) and a worker of the
process completing it with a processor that does nothing, counted as jobs both added and completed
per second; for \`tasks/get\`, HMGET of the two fields of the very hashes Baton's tasks were stored
in. Rates are Baton's / the floor's; CPU is µs per operation, in this process (the client and, for
Baton, the server) and in redis-server.

${table(
  [
    'Baton',
    'floor',
    'per second, Baton / floor',
    'Baton ÷ floor',
    'CPU µs, this process: Baton / floor',
    'CPU µs, Redis: Baton / floor',
    'Redis commands per op: Baton / floor',
    'Redis bytes per op: Baton / floor',
    'Redis socket reads per op: Baton / floor',
  ],
  [
    floorRow(
      'create a task (`tools/call`)',
      'BullMQ: add an empty job, a worker completes it',
      redis.creates,
      redis.floor.jobs,
    ),
    floorRow('`tasks/get`', 'HMGET rev body of the task hash', redis.gets, redis.floor.hashReads),
    ...(redis.floor.httpJobs
      ? [
          floorRow(
            'create a task (`tools/call`)',
            'bare Koa answering the same request: add the job, a worker completes it',
            redis.creates,
            redis.floor.httpJobs,
          ),
        ]
      : []),
    ...(redis.floor.httpHashReads
      ? [floorRow('`tasks/get`', 'bare Koa answering the same request: HMGET', redis.gets, redis.floor.httpHashReads)]
      : []),
  ],
)}

Redis commands, bytes and socket reads per operation come from redis-server's own counters (\`INFO
commandstats\`, \`INFO stats\`: bytes read and written, \`total_reads_processed\`), read before and
after each phase: they read the same on a loaded machine as on a quiet one. A socket read is one
wake-up of Redis for one client's input, however many commands it brought: the round trips as Redis
sees them, fewer than one per operation when concurrent operations share them. The commands each
operation sends, per operation:

${[
  commandMix('create a task', redis.creates),
  commandMix('`tasks/get`', redis.gets),
  commandMix('floor: BullMQ job added and completed', redis.floor.jobs),
  commandMix('floor: HMGET', redis.floor.hashReads),
  ...(redis.floor.httpJobs
    ? [commandMix('floor behind Koa: BullMQ job added and completed', redis.floor.httpJobs)]
    : []),
]
  .filter(Boolean)
  .join('\n')}

The first two floors send no HTTP: each of Baton's operations is an HTTP request and reply on top,
which on bare Koa alone costs its server ${n(floorKoa)} µs of CPU in this run (the MRTR floor above,
median over its cells), with the client's side of it in this process too. The floors behind bare
Koa pay for that exchange too: the server of this process answers the very request Baton's bench
sends (\`bench/tasks/task-request.ts\`) over the same client, reading its body, parsing it, adding
the job (or reading the hash) and writing a small reply. Their ratios are what Baton adds to an HTTP
service doing only that.`
    : '';
  const capacity = redis?.floor ? capacityPart(redis) : '';
  return [
    `## Tasks

An in-process Baton, \`tools/call\` of a tool that becomes a task at once and waits for an answer,
then \`tasks/get\` on those tasks; 16 concurrent clients on loopback, over the keep-alive agent of the
MRTR load generator (\`bench/tasks/task-throughput.ts\`). With Redis the task is stored (sealed) and
its first step queued on BullMQ before the call answers; a BullMQ worker of the same process runs
that step, which moves the task to \`input_required\`; each phase waits for the steps of the tasks
it created before its counters are read, so a create's cost holds its first step and a
\`tasks/get\`'s none of it. redis-server runs without persistence, pinned to the server core (idle
during this phase). CPU is µs per operation: this process (client and server together) /
redis-server.

${table(['store', 'tasks created/s', 'create p99 ms', 'CPU µs per create', 'tasks/get/s', 'get p99 ms', 'CPU µs per get'], rows)}`,
    floorPart,
    capacity,
    redis?.floor ? tasksProfile() : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}
