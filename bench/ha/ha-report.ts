/**
 * The high-availability bench's tables (Markdown, for docs/benchmarks.md): rates and latencies by
 * set-up, what each operation cost, and the failover. Figures are medians over the repetitions,
 * with the lowest and highest where there were several.
 */
import { n, table } from '../report/markdown-table.js';
import type { HaReport, HaSetupResult } from './ha-bench.js';
import { setupName } from './ha-bench.js';
import type { WindowFigures } from './ha-measure.js';

function median(values: number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The median of a figure over the repetitions, with its range when there were several. */
function spread(windows: WindowFigures[], read: (f: WindowFigures) => number | undefined, digits = 0): string {
  const values = windows.map((f) => read(f) ?? NaN).filter(Number.isFinite);
  if (values.length === 0) return '–';
  const mid = n(median(values), digits);
  return values.length > 1 ? `${mid} (${n(Math.min(...values), digits)}–${n(Math.max(...values), digits)})` : mid;
}

function latency(windows: WindowFigures[]): string {
  if (windows.length === 0) return '–';
  return `${n(median(windows.map((f) => f.p50Ms)), 1)} / ${n(median(windows.map((f) => f.p99Ms)), 1)}`;
}

function redisCpu(windows: WindowFigures[]): string {
  if (windows.length === 0) return '–';
  const masters = spread(windows, (f) => f.cost?.redisCpuMicros.masters);
  const replicas = median(windows.map((f) => f.cost?.redisCpuMicros.replicas ?? NaN));
  return Number.isFinite(replicas) ? `${masters} + ${n(replicas)}` : masters;
}

function traffic(windows: WindowFigures[]): string {
  if (windows.length === 0) return '–';
  const commands = median(windows.map((f) => f.cost?.redis.commands ?? NaN));
  const kb = median(windows.map((f) => (f.cost?.redis.bytes ?? NaN) / 1000));
  return `${n(commands, 1)} / ${n(kb, 1)} kB`;
}

const errors = (setup: HaSetupResult) => [...setup.tasks, ...setup.singleUse].reduce((sum, f) => sum + f.errors, 0);

export function rateTable(report: HaReport): string {
  return table(
    ['set-up', 'tasks/s', 'task p50 / p99, ms', 'single-use rounds/s', 'round p50 / p99, ms', 'errors'],
    report.setups.map((s) => [
      setupName(s),
      s.measuresTasks ? `**${spread(s.tasks, (f) => f.perSecond)}**` : '(as above)',
      latency(s.tasks),
      `**${spread(s.singleUse, (f) => f.perSecond)}**`,
      latency(s.singleUse),
      String(errors(s)),
    ]),
  );
}

export function costTable(report: HaReport): string {
  return table(
    [
      'set-up',
      'Redis CPU µs per task (masters + replicas)',
      'per single-use round',
      'commands / bytes per task',
      'per round',
      'Node CPU µs per task',
      'per round',
    ],
    report.setups.map((s) => [
      setupName(s),
      redisCpu(s.tasks),
      redisCpu(s.singleUse),
      traffic(s.tasks),
      traffic(s.singleUse),
      spread(s.tasks, (f) => f.cost?.nodeCpuMicros),
      spread(s.singleUse, (f) => f.cost?.nodeCpuMicros),
    ]),
  );
}

/** How a cluster's masters shared the work: each master's CPU per operation. */
export function clusterShares(report: HaReport): string {
  const cluster = report.setups.find((s) => s.topology === 'cluster');
  if (!cluster) return '';
  const each = (windows: WindowFigures[]) => {
    const masters = windows[0]?.cost?.mastersEachMicros?.length ?? 0;
    return Array.from({ length: masters }, (_, i) =>
      n(median(windows.map((f) => f.cost?.mastersEachMicros?.[i] ?? NaN))),
    ).join(' / ');
  };
  const placement = Object.entries(report.clusterPlacement)
    .map(([name, master]) => `${name} on master ${master + 1}`)
    .join(', ');
  return `On the cluster (${placement}), Redis CPU µs by master 1 / 2 / 3: per task ${each(cluster.tasks)}, per single-use round ${each(cluster.singleUse)}.`;
}

export function failoverTable(report: HaReport): string {
  const f = report.failover;
  const ms = (value: number | undefined) => (value === undefined ? 'none' : `${n(value)} ms`);
  return table(
    ['after the SIGKILL of the master', ''],
    [
      ['sentinels name the promoted replica', ms(f.promotionMs)],
      ['**first task step completed** (recorded by Baton)', `**${ms(f.firstStepMs)}**`],
      ['the same, seen by a client polling every 10 ms', ms(f.firstStepSeenMs)],
      ['first task created (among calls sent after the kill)', ms(f.firstCreateMs)],
      ['first single-use round answered (presented after the kill)', ms(f.firstSingleUseMs)],
      ['last task step completed before the kill', `${ms(f.lastStepBeforeMs)} before it`],
      ['last of the tasks in flight at the kill ended', ms(f.lastInFlightMs)],
      [
        'tasks: created / completed / failed / unfinished',
        `${f.tasks.created} / ${f.tasks.completed} / ${f.tasks.failed} / ${f.tasks.unfinished}`,
      ],
      ['creations refused (tried again)', String(f.tasks.refusedCreates)],
      ['single-use rounds answered / refused', `${f.singleUse.answered} / ${f.singleUse.refused}`],
    ],
  );
}

export function haTables(report: HaReport): string {
  return [rateTable(report), costTable(report), clusterShares(report), failoverTable(report)].join('\n\n');
}
