import { expect } from 'chai';
import { hasProcUsage, parseProcStat, parseProcStatm, procUsage } from '../../bench/targets/proc-usage.js';

describe('bench proc-usage', () => {
  // pid, (comm), state, then fields 4..13, utime (14) = 250 ticks, stime (15) = 30 ticks, and more.
  const stat = (comm: string) => `4242 (${comm}) S 1 4242 4242 0 -1 4194560 9 0 0 0 250 30 0 0 20 0 11 0 777`;

  it('reads user and system CPU in µs from the ticks of /proc/<pid>/stat', () => {
    expect(parseProcStat(stat('python3'), 100)).to.deep.equal({ user: 2_500_000, system: 300_000 });
    expect(parseProcStat(stat('node'), 1000)).to.deep.equal({ user: 250_000, system: 30_000 });
  });

  it('counts fields from the last parenthesis, so a command name with spaces and parentheses is read right', () => {
    expect(parseProcStat(stat('a ) b (c) d'), 100)).to.deep.equal({ user: 2_500_000, system: 300_000 });
  });

  it('refuses a line it cannot read instead of returning a wrong number', () => {
    expect(() => parseProcStat('4242 (x) S 1', 100)).to.throw('unreadable');
  });

  it('reads the resident set from /proc/<pid>/statm in bytes', () => {
    expect(parseProcStatm('123456 2500 700 10 0 3000 0\n', 4096)).to.equal(2500 * 4096);
  });

  it('reads this very process, agreeing with process.cpuUsage() to within a few ticks', function () {
    if (!hasProcUsage()) this.skip();
    const started = performance.now();
    while (performance.now() - started < 60) Math.sqrt(Math.random()); // some CPU to count
    const own = process.cpuUsage();
    const read = procUsage(process.pid);
    expect(read.rss).to.be.greaterThan(10 * 2 ** 20);
    expect(read.cpu.user + read.cpu.system).to.be.closeTo(own.user + own.system, 60_000);
  });
});
