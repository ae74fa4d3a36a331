/**
 * The report's sections about the targets side by side: the ratios to Baton (each taken within a
 * repetition), each target's medians, what the figures say about who was the limit, and the
 * sealed state each target sends.
 */
import type { BenchFlow } from '../flows/bench-flows.js';
import { TARGETS } from '../targets/target-catalogue.js';
import type { TargetKind } from '../targets/target-protocol.js';
import type { BenchReport } from './markdown-report.js';
import { n, table } from './markdown-table.js';
import { medianOf, metrics, ratio, select, spread, type Metric, type Spread } from './summary.js';

export function range(s: Spread, digits = 2, suffix = ''): string {
  if (s.count === 0) return '–';
  if (s.count === 1) return `${n(s.median, digits)}${suffix}`;
  return `${n(s.median, digits)}${suffix} (${n(s.min, digits)}–${n(s.max, digits)})`;
}

export function pairs(report: BenchReport): Array<{ flow: BenchFlow; c: number }> {
  return report.options.concurrency.flatMap((c) => report.options.flows.map((flow) => ({ flow, c })));
}

/** The targets compared with Baton in this run, in the order they ran. */
export function others(report: BenchReport): TargetKind[] {
  return report.options.targets.filter((t) => t !== 'baton');
}

/**
 * One table of ratios between Baton and every other target, cell by cell: `other ÷ Baton` when
 * `batonFirst` is false (CPU per request: how many times Baton's cost the other spends), else
 * `Baton ÷ other`.
 */
export function ratioTable(report: BenchReport, metric: Metric, batonFirst: boolean): string {
  const rows = pairs(report).map(({ flow, c }) => [
    flow.label,
    String(c),
    ...others(report).map((other) => {
      const [a, b] = batonFirst ? (['baton', other] as const) : ([other, 'baton'] as const);
      return range(ratio(report.records, flow.label, c, a, b, metric), 2, 'x');
    }),
  ]);
  return table(['flow', 'c', ...others(report).map((t) => TARGETS[t].name)], rows);
}

/** The least and the largest median ratio over the cells, per target: the range quoted elsewhere. */
export function ratioRangeOverCells(report: BenchReport, other: TargetKind, metric: Metric, batonFirst: boolean) {
  const medians = pairs(report).map(({ flow, c }) => {
    const [a, b] = batonFirst ? (['baton', other] as const) : ([other, 'baton'] as const);
    return ratio(report.records, flow.label, c, a, b, metric).median;
  });
  return spread(medians);
}

export function ratioSection(report: BenchReport): string {
  if (!report.options.targets.includes('baton') || others(report).length === 0) return '';
  const cpuRanges = others(report)
    .map((t) => {
      const s = ratioRangeOverCells(report, t, metrics.serverCpu, false);
      return `${TARGETS[t].name} ${n(s.min, 2)}–${n(s.max, 2)}x`;
    })
    .join(', ');
  return `## Ratios

Each ratio is taken within one repetition (its runs are adjacent in time, so they share the
machine's noise); the table gives the median over repetitions and, in brackets, the min–max.

### Server CPU per request, the other target ÷ Baton

How many times Baton's CPU per request each target spends: the throughput ratio the two would have
with a core of their own, and the figure least disturbed by other work on the machine (requests per
flow are the same on every target). Over the cells, the medians range: ${cpuRanges}.

${ratioTable(report, metrics.serverCpu, false)}

### Flows per second, Baton ÷ the other target

${ratioTable(report, metrics.flowsPerSecond, true)}

### p99 request latency, Baton ÷ the other target

${ratioTable(report, metrics.p99, true)}`;
}

export function targetSection(report: BenchReport): string {
  const rows: string[][] = [];
  for (const { flow, c } of pairs(report)) {
    for (const target of report.options.targets) {
      const runs = select(report.records, flow.label, c, target);
      if (runs.length === 0) continue;
      const m = (metric: Metric, digits = 0) => n(medianOf(runs, metric), digits);
      const errors = runs.reduce((sum, r) => sum + (r.result?.errors ?? 0) + (r.failure ? 1 : 0), 0);
      rows.push([
        flow.label,
        String(c),
        TARGETS[target].name,
        m(metrics.flowsPerSecond),
        m(metrics.requestsPerSecond),
        m(metrics.p50, 2),
        m(metrics.p90, 2),
        m(metrics.p99, 2),
        m(metrics.flowP99, 2),
        m(metrics.serverCpu),
        m(metrics.serverShare, 2),
        m(metrics.serverWrite, 1),
        m(metrics.clientCpu),
        m(metrics.clientShare, 2),
        `${m(metrics.requestBytes)} / ${m(metrics.responseBytes)}`,
        String(errors),
      ]);
    }
  }
  return `## Each target

Medians over repetitions. Latencies in ms per request (p50/p90/p99) and per flow (p99); server CPU
in µs per request and as a share of one core, and the part of it spent in socket writes (timed in
the Node targets only); the generator's own CPU likewise (a share near 1 means the generator, not
the server, was the limit); body bytes per request sent / received.

${table(
  [
    'flow',
    'c',
    'target',
    'flows/s',
    'req/s',
    'p50',
    'p90',
    'p99',
    'flow p99',
    'server µs/req',
    'server core',
    'server write µs/req',
    'generator µs/req',
    'generator core',
    'bytes out / in',
    'errors',
  ],
  rows,
)}`;
}

export function notesSection(report: BenchReport): string {
  const share = (target: TargetKind, metric: Metric) =>
    spread(report.records.filter((r) => r.target === target).map(metric));
  const notes: string[] = [];
  for (const target of report.options.targets) {
    const server = share(target, metrics.serverShare);
    const client = share(target, metrics.clientShare);
    if (server.count === 0) continue;
    notes.push(
      `${TARGETS[target].name}: the server used ${range(server)} of its core, the generator ${range(client)} of its own.`,
    );
  }
  const floorClient = share('floor', metrics.clientShare).median;
  if (floorClient > 0.8) {
    notes.push(
      'The floor runs were limited by the generator, not the floor: its flows/s is a lower bound, Baton ÷ floor ' +
        'flows/s an upper bound, and CPU/request floor ÷ Baton the better guide.',
    );
  }
  const batonServer = share('baton', metrics.serverShare).median;
  if (batonServer < 0.9) {
    notes.push(
      'Where a server used clearly less than its core while the generator was not saturated either, other ' +
        'processes on the machine took the time (see the load average above): flows/s and latency then vary ' +
        'between repetitions much more than CPU per request does.',
    );
  }
  return `## Reading the numbers

${notes.map((note) => `- ${note}`).join('\n')}`;
}

/** The targets whose state is the server's own (the floor's is a constant). */
const STATE_TARGETS: TargetKind[] = ['baton', 'sdk', 'python-sdk', 'fastmcp'];

export function stateSection(report: BenchReport): string {
  const rows: string[][] = [];
  for (const flow of report.options.flows) {
    for (const target of STATE_TARGETS) {
      const runs = report.records.filter((r) => r.flow === flow.label && r.target === target && r.result);
      if (runs.length === 0) continue;
      const byRound = flow.rounds.map((_, i) =>
        Math.max(0, ...runs.map((r) => r.result!.stateSizes.maxByRound[i] ?? 0)),
      );
      rows.push([flow.label, TARGETS[target].name, byRound.map((b) => `${b}`).join(' → '), `${Math.max(...byRound)}`]);
    }
  }
  return `## Sealed state size

Largest \`requestState\` seen after each asking round, in bytes (characters). Baton's is the whole
persisted machine snapshot plus its claims, deflated and sealed with \`nacl.secretbox\` (encrypted and
authenticated). The TS SDK's codec signs its payload with HMAC-SHA256 but does not encrypt it, and
carries only what the handler chose to keep. The Python SDK and FastMCP seal what the tool keeps
(the Python SDK's resolvers: each recorded answer and a digest of each question asked; FastMCP's
guard: the JSON it returned) in an envelope of claims (issued, expiry, method, tool, a digest of the
arguments, the audience), encrypted and authenticated with AES-256-GCM.

${table(['flow', 'target', 'by round', 'largest'], rows)}`;
}
