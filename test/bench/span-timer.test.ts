import { expect } from 'chai';
import { SpanTimer } from '../../bench/targets/span-timer.js';

/** Spins for about `ms` of wall time, so a span has a length to count. */
function busy(ms: number): number {
  const end = performance.now() + ms;
  let spins = 0;
  while (performance.now() < end) spins++;
  return spins;
}

describe('bench span timer', () => {
  it('counts each timed span and its time, and returns what the work returns', () => {
    const timer = new SpanTimer();
    expect(timer.time((ms: number) => busy(ms) > 0 && 'done', 2)).to.equal('done');
    timer.time(busy, 1);
    const { micros, count } = timer.totals();
    expect(count).to.equal(2);
    expect(micros).to.be.at.least(3000);
  });

  it('counts a span that throws, and rethrows', () => {
    const timer = new SpanTimer();
    expect(() =>
      timer.time(() => {
        throw new Error('boom');
      }, undefined),
    ).to.throw('boom');
    expect(timer.totals().count).to.equal(1);
  });

  it("times a method's calls with their own `this` and arguments, wrapping it once", () => {
    class Engine {
      constructor(readonly base: number) {}
      add(a: number): number {
        busy(1);
        return this.base + a;
      }
    }
    const timer = new SpanTimer();
    timer.timeMethod(Engine.prototype, 'add');
    timer.timeMethod(Engine.prototype, 'add');
    expect(new Engine(40).add(2)).to.equal(42);
    expect(timer.totals().count).to.equal(1);
    expect(timer.totals().micros).to.be.at.least(1000);
  });

  it('times only the synchronous part of a method that returns a promise', async () => {
    class Waiter {
      async wait(): Promise<string> {
        await new Promise((resolve) => setTimeout(resolve, 30));
        return 'waited';
      }
    }
    const timer = new SpanTimer();
    timer.timeMethod(Waiter.prototype, 'wait');
    expect(await new Waiter().wait()).to.equal('waited');
    expect(timer.totals().count).to.equal(1);
    expect(timer.totals().micros).to.be.below(20_000);
  });
});
