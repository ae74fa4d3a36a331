import { expect } from 'chai';
import { median, percentileOfSorted, SampleBuffer, summarize } from '../../bench/load/percentiles.js';

describe('bench percentiles', () => {
  it('uses the nearest rank', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentileOfSorted(sorted, 50)).to.equal(50);
    expect(percentileOfSorted(sorted, 90)).to.equal(90);
    expect(percentileOfSorted(sorted, 99)).to.equal(99);
    expect(percentileOfSorted(sorted, 100)).to.equal(100);
    expect(percentileOfSorted(sorted, 0)).to.equal(1);
    expect(percentileOfSorted([7], 99)).to.equal(7);
    expect(percentileOfSorted([1, 2, 3], 50)).to.equal(2);
  });

  it('is NaN without samples', () => {
    expect(percentileOfSorted([], 50)).to.be.NaN;
    expect(summarize([]).p99).to.be.NaN;
    expect(median([])).to.be.NaN;
  });

  it('summarizes unsorted samples numerically, not as strings', () => {
    const summary = summarize([10, 9, 100, 1, 2]);
    expect(summary).to.include({ count: 5, p50: 9, max: 100 });
    expect(summary.mean).to.be.closeTo(24.4, 1e-9);
  });

  it('takes the median of an even count as the mean of the middle two', () => {
    expect(median([4, 1, 3, 2])).to.equal(2.5);
    expect(median([5, 1, 3])).to.equal(3);
  });

  it('grows its sample buffer without losing values', () => {
    const buffer = new SampleBuffer();
    for (let i = 0; i < 5000; i++) buffer.push(i);
    expect(buffer.length).to.equal(5000);
    expect(buffer.values()[4999]).to.equal(4999);
    expect(summarize(buffer.values()).p50).to.equal(2499);
  });
});
