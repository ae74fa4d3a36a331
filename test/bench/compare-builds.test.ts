import { expect } from 'chai';
import {
  baselineFirst,
  blockSizes,
  comparisonLine,
  median,
  medianInterval,
  parseCompareOptions,
} from '../../bench/compare-builds.js';

describe('compare-builds options', () => {
  it('takes the baseline and defaults to every flow, 16 clients, ten 2 s windows on five process pairs', () => {
    const options = parseCompareOptions(['/tmp/base/dist']);
    expect(options.baseline).to.equal('/tmp/base/dist');
    expect(options.flows.map((f) => f.label)).to.deep.equal(['one-question', 'three-question', 'parallel']);
    expect([options.concurrency, options.windows, options.windowMs, options.processes]).to.deep.equal([
      [16],
      10,
      2000,
      5,
    ]);
    expect(options.telemetry).to.equal(false);
    expect(parseCompareOptions(['/tmp/base/dist', '--telemetry']).telemetry).to.equal(true);
    expect(options.console).to.equal(false);
    expect(parseCompareOptions(['/tmp/base/dist', '--console']).console).to.equal(true);
    expect(options.otlp).to.equal(false);
    expect(options.both).to.equal(false);
    expect(parseCompareOptions(['/tmp/base/dist', '--otlp', '--both'])).to.include({ otlp: true, both: true });
    expect(parseCompareOptions(['/tmp/base/dist', '--otlp'])).to.include({ otlpMetrics: false });
    // Metrics over OTLP need the receiver: the option brings --otlp with it.
    expect(parseCompareOptions(['/tmp/base/dist', '--otlp-metrics'])).to.include({ otlp: true, otlpMetrics: true });
    expect(options.baselineEnv).to.deep.equal({});
  });

  it('sets variables in the baseline only, each given apart, and refuses one that names none', () => {
    const options = parseCompareOptions([
      'dist',
      '--otlp',
      '--both',
      '--baseline-env',
      'OTEL_TRACES_SAMPLER=always_off',
      '--baseline-env',
      'OTEL_RESOURCE_ATTRIBUTES=a=1,b=2',
      '--baseline-env',
      'EMPTY=',
    ]);
    expect(options.baselineEnv).to.deep.equal({
      OTEL_TRACES_SAMPLER: 'always_off',
      OTEL_RESOURCE_ATTRIBUTES: 'a=1,b=2',
      EMPTY: '',
    });
    expect(() => parseCompareOptions(['dist', '--baseline-env'])).to.throw('NAME=VALUE');
    expect(() => parseCompareOptions(['dist', '--baseline-env', '=x'])).to.throw('NAME=VALUE');
    expect(() => parseCompareOptions(['dist', '--baseline-env', 'A-B=x'])).to.throw('NAME=VALUE');
  });

  it('reads flows, clients, windows and seconds, and refuses what it cannot use', () => {
    const options = parseCompareOptions([
      'base',
      '--flows',
      'parallel',
      '--concurrency',
      '16,64',
      '--windows',
      '4',
      '--seconds',
      '0.5',
    ]);
    expect(options.flows.map((f) => f.label)).to.deep.equal(['parallel']);
    expect([options.concurrency, options.windows, options.windowMs]).to.deep.equal([[16, 64], 4, 500]);
    expect(() => parseCompareOptions(['base', '--concurrency', '16,0'])).to.throw('--concurrency');
    expect(parseCompareOptions(['base', '--windows', '40', '--processes', '8']).processes).to.equal(8);
    expect(parseCompareOptions(['base', '--windows', '4']).processes).to.equal(4);
    expect(() => parseCompareOptions(['base', '--windows', '4', '--processes', '5'])).to.throw(
      'at least one window a pair',
    );
    expect(() => parseCompareOptions(['base', '--processes', '2.5'])).to.throw('whole numbers');
    expect(() => parseCompareOptions([])).to.throw('Usage');
    expect(() => parseCompareOptions(['base', '--flows', 'four-question'])).to.throw('Unknown flow');
    expect(() => parseCompareOptions(['base', '--windows', '0'])).to.throw('--windows');
  });

  it('alternates which build goes first in a pair (A B, B A)', () => {
    expect([0, 1, 2, 3].map(baselineFirst)).to.deep.equal([true, false, true, false]);
  });

  it('takes the median of the paired ratios', () => {
    expect(median([1.1, 0.8, 0.9])).to.equal(0.9);
    expect(median([1, 0.8, 0.9, 0.7])).to.be.closeTo(0.85, 1e-12);
  });

  it('bounds the median by order statistics, at the binomial coverage', () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => (n - i) / 100);
    // n = 14: P(Binomial(14, ½) ≤ 3) = 0.0287, ≤ 4 = 0.0898; the 4th smallest and 4th largest.
    const fourteen = medianInterval(values(14))!;
    expect([fourteen.low, fourteen.high]).to.deep.equal([0.04, 0.11]);
    expect(fourteen.coverage).to.be.closeTo(0.9426, 1e-4);
    // n = 30: P(X ≤ 10) = 0.0494; the 11th smallest and 11th largest.
    const thirty = medianInterval(values(30))!;
    expect([thirty.low, thirty.high]).to.deep.equal([0.11, 0.2]);
    expect(thirty.coverage).to.be.closeTo(0.9013, 1e-4);
    expect(medianInterval(values(5))).to.deep.equal({ low: 0.01, high: 0.05, coverage: 0.9375 });
    expect(medianInterval(values(4))).to.equal(undefined);
    expect(medianInterval(values(14), 0.99)).to.deep.include({ low: 0.02, high: 0.13 });
  });

  it('prints the interval of the median ratio once there are windows enough for one', () => {
    const window = (cpu: number) => ({ cpuMicrosPerRequest: cpu, flowsPerSecond: 1000, p99Ms: 1 });
    const before = [100, 100, 100, 100, 100].map(window);
    const after = [70, 90, 80, 60, 75].map(window);
    expect(comparisonLine('one', before, after)).to.contain(
      'CPU 100.0 → 75.0 µs/req 0.750x [0.600–0.900 at 93.8% over 5 windows of one process pair]',
    );
  });

  it('splits the windows among the process pairs, as evenly as can be', () => {
    expect(blockSizes(10, 3)).to.deep.equal([4, 3, 3]);
    expect(blockSizes(40, 8)).to.deep.equal([5, 5, 5, 5, 5, 5, 5, 5]);
    expect(blockSizes(5, 5)).to.deep.equal([1, 1, 1, 1, 1]);
  });

  it('takes the interval over the process pairs, not their windows, once there are five pairs', () => {
    const window = (cpu: number) => ({ cpuMicrosPerRequest: cpu, flowsPerSecond: 1000, p99Ms: 1 });
    // Five pairs of four windows; each pair's windows agree, the pairs do not.
    const after = [60, 70, 75, 80, 95].flatMap((cpu) => [cpu, cpu, cpu, cpu]).map(window);
    const before = after.map(() => window(100));
    const pairOf = [0, 1, 2, 3, 4].flatMap((pair) => [pair, pair, pair, pair]);
    expect(comparisonLine('p', before, after, pairOf)).to.contain('0.750x [0.600–0.950 at 93.8% over 5 process pairs]');
    // Taken over the 20 windows as if independent, it would look twice as narrow.
    // With fewer than five pairs it stays over the windows, and says how many pairs they came from.
    expect(
      comparisonLine(
        'p',
        before,
        after,
        pairOf.map((pair) => pair % 2),
      ),
    ).to.contain('over 20 windows of 2 process pairs]');
    expect(comparisonLine('p', before, after)).to.contain(
      '0.750x [0.700–0.800 at 95.9% over 20 windows of one process pair]',
    );
  });

  it('prints each measure as medians and the median of the paired ratios, with their spread', () => {
    const window = (cpu: number, flows: number, p99: number) => ({
      cpuMicrosPerRequest: cpu,
      flowsPerSecond: flows,
      p99Ms: p99,
    });
    const before = [window(200, 1000, 10), window(100, 2000, 4), window(190, 1100, 8)];
    const after = [window(150, 1300, 5), window(90, 2200, 4), window(152, 1430, 6)];
    expect(comparisonLine('parallel', before, after)).to.equal(
      'parallel              CPU 190.0 → 150.0 µs/req 0.800x (0.750–0.900)  flows/s 1100 → 1430 1.300x (1.100–1.300)' +
        '  p99 8.00 → 5.00 ms 0.750x (0.500–1.000)',
    );
  });
});
