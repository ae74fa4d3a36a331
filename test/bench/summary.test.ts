import { expect } from 'chai';
import type { LoadResult } from '../../bench/load/load-generator.js';
import { barLines, limitCells, UNAVOIDABLE_STEPS } from '../../bench/report/bar.js';
import { loadFactorCells } from '../../bench/report/load-factor.js';
import { combinations, metrics, ratio, spread } from '../../bench/report/summary.js';
import type { RunRecord } from '../../bench/run-matrix.js';

function result(flowsPerSecond: number, p99: number, errors = 0): LoadResult {
  const latency = { count: 1, mean: p99, p50: p99, p90: p99, p99, max: p99 };
  return {
    windowMs: 1000,
    flows: flowsPerSecond,
    requests: flowsPerSecond * 4,
    errors,
    errorSamples: errors ? ['boom'] : [],
    flowsPerSecond,
    requestsPerSecond: flowsPerSecond * 4,
    requestLatencyMs: latency,
    flowLatencyMs: latency,
    requestBytes: 100,
    responseBytes: 200,
    stateSizes: { maxByRound: [400, 410, 420], min: 400, max: 420, mean: 410 },
    clientCpuMicrosPerRequest: 50,
  };
}

function run(target: RunRecord['target'], rep: number, flowsPerSecond: number, p99: number, errors = 0): RunRecord {
  return { target, flow: 'three-question', concurrency: 16, rep, result: result(flowsPerSecond, p99, errors) };
}

describe('bench summary', () => {
  const records = [
    run('baton', 1, 600, 2),
    run('sdk', 1, 100, 20),
    run('floor', 1, 1000, 1),
    run('baton', 2, 300, 4),
    run('sdk', 2, 100, 10),
    run('floor', 2, 1000, 1),
  ];

  it('pairs ratios within a repetition and reports their median and range', () => {
    const flows = ratio(records, 'three-question', 16, 'baton', 'sdk', metrics.flowsPerSecond);
    expect(flows).to.deep.equal({ median: 4.5, min: 3, max: 6, count: 2 });
    const p99 = ratio(records, 'three-question', 16, 'baton', 'sdk', metrics.p99);
    expect(p99.min).to.equal(0.1);
    expect(p99.max).to.equal(0.4);
  });

  it('ignores runs without a result in a spread', () => {
    expect(spread([NaN, 2, 4])).to.deep.equal({ median: 3, min: 2, max: 4, count: 2 });
    expect(spread([]).count).to.equal(0);
  });

  it('passes a target x flow combination only when every run completed without errors', () => {
    const withError = [...records, run('sdk', 3, 100, 20, 2), { ...run('floor', 3, 0, 0), failure: 'target died' }];
    const byTarget = Object.fromEntries(combinations(withError).map((c) => [c.target, c]));
    expect(byTarget.baton!.passed).to.equal(true);
    expect(byTarget.sdk!.passed).to.equal(false);
    expect(byTarget.sdk!.problems[0]).to.match(/2 errors/);
    expect(byTarget.floor!.passed).to.equal(false);
    expect(byTarget.floor!.runs).to.equal(3);
  });

  it('checks the bar on the worst median', () => {
    const lines = barLines(records, undefined, undefined);
    const [limit, engine, sdk, p99, state, rss] = lines;
    expect(limit!.met).to.equal(undefined); // no micro-benchmarks, no write timings
    expect(engine!.met).to.equal(undefined);
    expect(sdk!.met).to.equal(true); // median 4.5x >= 3.5x
    expect(p99!.met).to.equal(true); // median 0.25 <= 0.3
    expect(state).to.include({ measured: '420 B', met: true });
    expect(rss!.met).to.equal(undefined);
  });

  it("computes the limit from the floor without its write, Baton's write and the flow's steps per request", () => {
    const timed = (record: RunRecord, cpu: number, write: number): RunRecord => ({
      ...record,
      serverCpuMicrosPerRequest: cpu,
      serverWriteMicrosPerRequest: write,
    });
    const step = (name: string, micros: number) => ({
      step: name,
      what: '',
      medianMicros: micros,
      minMicros: micros,
      maxMicros: micros,
      batches: 1,
      perBatch: 1,
    });
    const round = (number: number, kind: 'first' | 'middle' | 'last', sum: number) => ({
      number,
      kind,
      answered: [],
      asked: [],
      steps: [step('initial', sum)],
      sum,
    });
    const micro = {
      steps: UNAVOIDABLE_STEPS.slice(0, 8).map((name) => step(name, 5)),
      extras: [step('binding', 2), step('answer mapping', 2), step('ask', 1), step('FlowEngine.run', 60)],
      stateLength: 500,
      // Three-question: 30 + 50 + 60 + 20 = 160 over 4 requests, 40 per request (the middle round's
      // steps add up to 45); the one-question flow's figure is another flow's and must not be used.
      flows: [
        {
          flow: 'three-question' as const,
          rounds: [round(1, 'first', 30), round(2, 'middle', 50), round(3, 'middle', 60), round(4, 'last', 20)],
          requests: 4,
          sum: 160,
          perRequest: 40,
        },
        { flow: 'one-question' as const, rounds: [], requests: 2, sum: 200, perRequest: 100 },
      ],
    };
    const cells = limitCells([timed(records[0]!, 150, 20), timed(records[2]!, 50, 5)], micro);
    // L = (50 - 5) + 20 + 40 = 105; Baton 150 / 105.
    expect(cells).to.have.length(1);
    expect(cells[0]!.steps).to.equal(40);
    expect(cells[0]!.limit).to.equal(105);
    expect(cells[0]!.ratio).to.be.closeTo(150 / 105, 1e-9);
    const [limit, engine] = barLines([timed(records[0]!, 150, 20), timed(records[2]!, 50, 5)], undefined, micro);
    expect(limit!.met).to.equal(false); // 1.43x > 1.3x
    expect(engine!.met).to.equal(false); // the middle round: 60 / 45 = 1.33x > 1.25x
    // A run without the flow's figure (saved before it was measured) has no limit for it.
    expect(limitCells([timed(records[0]!, 150, 20), timed(records[2]!, 50, 5)], { ...micro, flows: [] })).to.deep.equal(
      [],
    );

    // The same code hot and under load: the engine round 50 µs hot, 100 under load (2x), so the
    // steps at their loaded cost add 40 × (2 - 1): L 145, Baton 150 / 145.
    const working = (record: RunRecord, work: number): RunRecord => ({ ...record, serverWorkMicrosPerRequest: work });
    const hot = { ...micro, flows: [{ ...micro.flows[0]!, engineRunPerRequest: 50, floorAnswerPerRequest: 3 }] };
    const loaded = [working(timed(records[0]!, 150, 20), 100), working(timed(records[2]!, 50, 5), 6)];
    const [cell] = loadFactorCells(loaded, hot);
    expect(cell).to.include({ floorWorkHot: 3, floorWorkLoaded: 6, engineRunHot: 50, engineRunLoaded: 100 });
    expect(cell!.limitStepsLoaded).to.be.closeTo(145, 1e-9);
    // Not measured both ways (a run saved before, or no timing under load): no cell.
    expect(loadFactorCells(loaded, micro)).to.deep.equal([]);
    expect(loadFactorCells([timed(records[0]!, 150, 20), timed(records[2]!, 50, 5)], hot)).to.deep.equal([]);
  });
});
