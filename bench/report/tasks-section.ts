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
  ];
}

/** Which commands an operation sends, per operation: where a shrink of its Redis cost would come from. */
function commandMix(what: string, figures: OpFigures): string {
  const mix = figures.redisPerOp?.mix;
  if (!mix || mix.length === 0) return '';
  return `- ${what}: ${mix.map(([name, perOp]) => `\`${name}\` ${perOp.toFixed(2)}`).join(', ')}`;
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
  ],
  [
    floorRow(
      'create a task (`tools/call`)',
      'BullMQ: add an empty job, a worker completes it',
      redis.creates,
      redis.floor.jobs,
    ),
    floorRow('`tasks/get`', 'HMGET rev body of the task hash', redis.gets, redis.floor.hashReads),
  ],
)}

Redis commands and bytes per operation come from redis-server's own counters (\`INFO commandstats\`,
\`INFO stats\`: bytes read and written), read before and after each phase: they read the same on a
loaded machine as on a quiet one. The commands each operation sends, per operation:

${[
  commandMix('create a task', redis.creates),
  commandMix('`tasks/get`', redis.gets),
  commandMix('floor: BullMQ job added and completed', redis.floor.jobs),
  commandMix('floor: HMGET', redis.floor.hashReads),
]
  .filter(Boolean)
  .join('\n')}

The floor sends no HTTP: each of Baton's operations is an HTTP request and reply on top, which on
bare Koa alone costs its server ${n(floorKoa)} µs of CPU in this run (the MRTR floor above, median over
its cells), with the client's side of it in this process too.`
    : '';
  return [
    `## Tasks

An in-process Baton, \`tools/call\` of a tool that becomes a task at once and waits for an answer,
then \`tasks/get\` on those tasks; 16 concurrent clients on loopback, over the keep-alive agent of the
MRTR load generator (\`bench/tasks/task-throughput.ts\`). With Redis the task is stored (sealed) and
its first step queued on BullMQ before the call answers; a BullMQ worker of the same process runs
that step, which moves the task to \`input_required\`. redis-server runs without persistence, pinned
to the server core (idle during this phase). CPU is µs per operation: this process (client and
server together) / redis-server.

${table(['store', 'tasks created/s', 'create p99 ms', 'CPU µs per create', 'tasks/get/s', 'get p99 ms', 'CPU µs per get'], rows)}`,
    floorPart,
    redis?.floor ? tasksProfile() : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}
