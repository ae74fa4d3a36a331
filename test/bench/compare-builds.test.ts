import { expect } from 'chai';
import { median, parseCompareOptions } from '../../bench/compare-builds.js';

describe('compare-builds options', () => {
  it('takes the baseline and defaults to every flow, 16 clients, ten 2 s windows', () => {
    const options = parseCompareOptions(['/tmp/base/dist']);
    expect(options.baseline).to.equal('/tmp/base/dist');
    expect(options.flows.map((f) => f.label)).to.deep.equal(['one-question', 'three-question', 'parallel']);
    expect([options.concurrency, options.windows, options.windowMs]).to.deep.equal([16, 10, 2000]);
  });

  it('reads flows, clients, windows and seconds, and refuses what it cannot use', () => {
    const options = parseCompareOptions(['base', '--flows', 'parallel', '--windows', '4', '--seconds', '0.5']);
    expect(options.flows.map((f) => f.label)).to.deep.equal(['parallel']);
    expect([options.windows, options.windowMs]).to.deep.equal([4, 500]);
    expect(() => parseCompareOptions([])).to.throw('Usage');
    expect(() => parseCompareOptions(['base', '--flows', 'four-question'])).to.throw('Unknown flow');
    expect(() => parseCompareOptions(['base', '--windows', '0'])).to.throw('--windows');
  });

  it('takes the median of the paired ratios', () => {
    expect(median([1.1, 0.8, 0.9])).to.equal(0.9);
    expect(median([1, 0.8, 0.9, 0.7])).to.be.closeTo(0.85, 1e-12);
  });
});
