/**
 * `npm run bench:ha -- --quick` end to end, in process: the three Redis set-ups side by side, a
 * task and a single-use window on each, then the Sentinel set's master killed with work in
 * flight. Checks that every set-up was measured, nothing failed, and the failover was timed.
 */
import { expect } from 'chai';
import { runHaBench, type HaReport } from '../../bench/ha/ha-bench.js';
import { parseHaOptions } from '../../bench/ha/ha-options.js';
import { haTables } from '../../bench/ha/ha-report.js';
import { REDIS, requireBinaries } from '../helpers/required-binary.js';

describe('bench:ha --quick', function () {
  this.timeout(120_000);
  let report: HaReport;

  before(async function () {
    requireBinaries(this, REDIS);
    const { save: _save, ...options } = parseHaOptions(['--quick'])!;
    report = await runHaBench(options);
  });

  it('measures tasks and single-use rounds on one Redis, Sentinel (with and without WAIT) and a cluster', () => {
    const names = report.setups.map((setup) => `${setup.topology}:${setup.waitReplicas}`);
    expect(names).to.deep.equal(['redis:0', 'sentinel:1', 'sentinel:0', 'cluster:0']);
    for (const setup of report.setups) {
      const windows = [...setup.tasks, ...setup.singleUse];
      expect(
        windows.map((w) => w.errors),
        setup.topology,
      ).to.deep.equal(windows.map(() => 0));
      expect(setup.singleUse[0]!.perSecond, setup.topology).to.be.greaterThan(0);
      expect(setup.singleUse[0]!.cost?.redis.commands, setup.topology).to.be.greaterThan(0);
      if (setup.measuresTasks) {
        expect(setup.tasks[0]!.perSecond, setup.topology).to.be.greaterThan(0);
        expect(setup.tasks[0]!.p99Ms).to.be.at.least(setup.tasks[0]!.p50Ms);
      }
    }
    // WAIT is the guard's: only a Sentinel set's single-use rounds send it.
    const waits = (index: number) => report.setups[index]!.singleUse[0]!.cost!.redis.mix.some(([c]) => c === 'wait');
    expect([0, 1, 2, 3].map(waits)).to.deep.equal([false, true, false, false]);
    expect(Object.keys(report.clusterPlacement)).to.have.length(3);
  });

  it('times the first task step completed after the master was killed, and loses no task', () => {
    const { failover } = report;
    expect(failover.promotionMs).to.be.greaterThan(0);
    expect(failover.firstStepMs).to.be.a('number').greaterThan(0);
    expect(failover.firstCreateMs).to.be.a('number');
    expect(failover.firstSingleUseMs).to.be.a('number');
    expect(failover.tasks.completed).to.equal(failover.tasks.created);
    expect(failover.tasks.failed + failover.tasks.unfinished).to.equal(0);
  });

  it('writes the tables for docs/benchmarks.md', () => {
    const tables = haTables(report);
    for (const name of [
      'one Redis',
      'Sentinel, WAIT 1',
      'Sentinel, no WAIT',
      'cluster, 3 masters',
      'first task step',
    ]) {
      expect(tables).to.include(name);
    }
  });
});
