import { expect } from 'chai';
import { parseBenchOptions } from '../../bench/bench-options.js';
import type { BenchReport } from '../../bench/report/markdown-report.js';
import { ratioRangeOverCells, ratioSection, stateSection, targetSection } from '../../bench/report/target-sections.js';
import { metrics } from '../../bench/report/summary.js';
import type { RunRecord } from '../../bench/run-matrix.js';
import type { TargetKind } from '../../bench/targets/target-protocol.js';

function run(target: TargetKind, rep: number, cpu: number, flowsPerSecond: number): RunRecord {
  const latency = { count: 1, mean: 1, p50: 1, p90: 1, p99: 1000 / flowsPerSecond, max: 1 };
  return {
    target,
    flow: 'parallel',
    concurrency: 16,
    rep,
    serverCpuMicrosPerRequest: cpu,
    result: {
      windowMs: 1000,
      flows: flowsPerSecond,
      requests: flowsPerSecond * 3,
      errors: 0,
      errorSamples: [],
      flowsPerSecond,
      requestsPerSecond: flowsPerSecond * 3,
      requestLatencyMs: latency,
      flowLatencyMs: latency,
      requestBytes: 100,
      responseBytes: 200,
      stateSizes: { maxByRound: [600, 500], min: 500, max: 600, mean: 550 },
      clientCpuMicrosPerRequest: 50,
    },
  };
}

function report(targets: TargetKind[], records: RunRecord[]): BenchReport {
  const options = parseBenchOptions(['--flows', 'parallel', '--concurrency', '16', '--targets', targets.join(',')]);
  return { options, records, combinations: [], phaseFailures: [], seconds: 1, command: 'x' } as unknown as BenchReport;
}

describe('bench report, the targets side by side', () => {
  const all: TargetKind[] = ['baton', 'sdk', 'python-sdk', 'fastmcp', 'floor'];
  // Two repetitions; Python SDK costs 10x and then 20x Baton's CPU: median 15x, range 10–20.
  const records = [
    run('baton', 1, 100, 1000),
    run('sdk', 1, 400, 250),
    run('python-sdk', 1, 1000, 100),
    run('fastmcp', 1, 2000, 50),
    run('floor', 1, 40, 2500),
    run('baton', 2, 100, 1000),
    run('sdk', 2, 500, 200),
    run('python-sdk', 2, 2000, 50),
    run('fastmcp', 2, 2000, 50),
    run('floor', 2, 40, 2500),
  ];

  it('gives every other target a column of ratios to Baton, within each repetition', () => {
    const section = ratioSection(report(all, records));
    const cpuTable = section.slice(section.indexOf('| flow'), section.indexOf('### Flows per second'));
    expect(cpuTable).to.contain('| flow | c | TS SDK | Python SDK | FastMCP | floor (bare Koa) |');
    expect(cpuTable).to.contain(
      '| parallel | 16 | 4.50x (4.00–5.00) | 15.00x (10.00–20.00) | 20.00x (20.00–20.00) | 0.40x (0.40–0.40) |',
    );
    const flowsTable = section.slice(section.indexOf('### Flows per second'), section.indexOf('### p99'));
    expect(flowsTable).to.contain(
      '| parallel | 16 | 4.50x (4.00–5.00) | 15.00x (10.00–20.00) | 20.00x (20.00–20.00) | 0.40x (0.40–0.40) |',
    );
    expect(section).to.contain('Python SDK 15.00–15.00x');
  });

  it('leaves out the columns of targets that did not run, and the section without Baton', () => {
    const some = report(['baton', 'fastmcp'], records);
    expect(ratioSection(some)).to.contain('| flow | c | FastMCP |');
    expect(ratioSection(some)).not.to.contain('TS SDK');
    expect(ratioSection(report(['sdk', 'floor'], records))).to.equal('');
  });

  it('ranges the median ratios over the cells', () => {
    const s = ratioRangeOverCells(report(all, records), 'python-sdk', metrics.serverCpu, false);
    expect([s.min, s.max]).to.deep.equal([15, 15]);
  });

  it("lists every target's medians by name, and the sealed states of all but the floor", () => {
    const r = report(all, records);
    for (const name of ['Baton', 'TS SDK', 'Python SDK', 'FastMCP', 'floor (bare Koa)']) {
      expect(targetSection(r)).to.contain(`| ${name} |`);
    }
    expect(stateSection(r)).to.contain('| parallel | Python SDK | 600 → 500 | 600 |');
    expect(stateSection(r)).not.to.contain('floor');
  });

  it('runs every target in full mode and one concurrency in quick mode', () => {
    expect(parseBenchOptions([]).targets).to.deep.equal(all);
    expect(parseBenchOptions([]).concurrency).to.deep.equal([16, 64]);
    expect(parseBenchOptions(['--quick']).concurrency).to.deep.equal([16]);
    expect(() => parseBenchOptions(['--targets', 'pydantic'])).to.throw('Unknown target');
  });
});
