import { expect } from 'chai';
import { baselineFirst, comparisonLine, median, parseCompareOptions } from '../../bench/compare-builds.js';

describe('compare-builds options', () => {
  it('takes the baseline and defaults to every flow, 16 clients, ten 2 s windows', () => {
    const options = parseCompareOptions(['/tmp/base/dist']);
    expect(options.baseline).to.equal('/tmp/base/dist');
    expect(options.flows.map((f) => f.label)).to.deep.equal(['one-question', 'three-question', 'parallel']);
    expect([options.concurrency, options.windows, options.windowMs]).to.deep.equal([[16], 10, 2000]);
    expect(options.telemetry).to.equal(false);
    expect(parseCompareOptions(['/tmp/base/dist', '--telemetry']).telemetry).to.equal(true);
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
