import { expect } from 'chai';
import { capacityPart, floorRow, tasksSection } from '../../bench/report/tasks-section.js';
import type { OpFigures } from '../../bench/tasks/task-load.js';
import type { TaskThroughput } from '../../bench/tasks/task-throughput.js';

const op = (
  perSecond: number,
  cpu: number,
  redis?: number,
  perOp?: { commands: number; bytes: number; reads: number; mix: Array<[string, number]> },
): OpFigures => ({
  perSecond,
  p50Ms: 1,
  p99Ms: 5,
  errors: 0,
  cpuMicrosPerOp: cpu,
  ...(redis === undefined ? {} : { redisCpuMicrosPerOp: redis }),
  ...(perOp === undefined ? {} : { redisPerOp: perOp }),
});

describe('bench report, tasks against their floor', () => {
  it('puts Baton and the floor side by side: rates, their ratio, CPU, Redis commands, bytes and reads per operation', () => {
    const baton = op(500, 1700, 330, { commands: 24, bytes: 9000, reads: 0.6, mix: [['evalsha', 6]] });
    const floor = op(2500, 136, 100, { commands: 8, bytes: 1500, reads: 0.25, mix: [['evalsha', 3]] });
    expect(floorRow('create', 'add a job', baton, floor)).to.deep.equal([
      'create',
      'add a job',
      '500 / 2,500',
      '**0.20x**',
      '1,700 / 136 (12.50x)',
      '330 / 100 (3.30x)',
      '24.0 / 8.0 (3.00x)',
      '9,000 / 1,500 (6.00x)',
      '0.60 / 0.25',
    ]);
    // A small ratio keeps three decimals rather than rounding to 0.02x.
    expect(floorRow('get', 'HMGET', op(900, 740), op(50_000, 16))[3]).to.equal('**0.018x**');
  });

  it('writes the floor table only for a run that measured the floor', () => {
    const memory: TaskThroughput = { store: 'memory', creates: op(500, 1500), gets: op(2000, 300) };
    const redis: TaskThroughput = {
      store: 'redis',
      creates: op(500, 1700, 330, {
        commands: 24,
        bytes: 9000,
        reads: 0.6,
        mix: [
          ['evalsha', 6],
          ['hset', 2.5],
        ],
      }),
      gets: op(900, 740, 125),
      floor: { jobs: { ...op(2500, 136, 100), completedPerSecond: 2500 }, hashReads: op(50_000, 16, 11) },
    };
    const without = tasksSection([memory], []);
    expect(without).to.contain('| in memory | 500 |');
    expect(without).not.to.contain('Against their floor');
    const withFloor = tasksSection([memory, redis], []);
    expect(withFloor).to.contain('### Against their floor on the same Redis');
    expect(withFloor).to.contain('| Redis + BullMQ | 500 | 5.0 | 1,700 / 330 |');
    // The commands a create sends, by name: where a shrink would come from.
    expect(withFloor).to.contain('- create a task: `evalsha` 6.00, `hset` 2.50');
    expect(tasksSection([], [])).to.equal('');
    // A run saved before the floors behind Koa were measured has no rows for them.
    expect(withFloor).not.to.contain('bare Koa answering the same request');
  });

  it('sets Baton beside the floors behind bare Koa, which pay for the same HTTP exchange', () => {
    const redis: TaskThroughput = {
      store: 'redis',
      creates: op(500, 1000, 300),
      gets: op(900, 200, 10),
      floor: {
        jobs: { ...op(2500, 50, 100), completedPerSecond: 2500 },
        hashReads: op(50_000, 10, 5),
        httpJobs: { ...op(2000, 250, 100), completedPerSecond: 2000 },
        httpHashReads: op(10_000, 100, 5),
      },
    };
    const section = tasksSection([redis], []);
    expect(section).to.contain(
      '| create a task (`tools/call`) | bare Koa answering the same request: add the job, a worker completes it | 500 / 2,000 | **0.25x** | 1,000 / 250 (4.00x) |',
    );
    expect(section).to.contain(
      '| `tasks/get` | bare Koa answering the same request: HMGET | 900 / 10,000 | **0.090x** | 200 / 100 (2.00x) |',
    );
  });

  it('turns the Redis figures into capacity: per Redis core, per Baton core, and their ratio', () => {
    const redis: TaskThroughput = {
      store: 'redis',
      creates: op(500, 2000, 500),
      gets: op(900, 400, 20),
    };
    const part = capacityPart(redis);
    expect(part).to.contain('### What it means for a fleet');
    // 10^6 / 500 µs = 2,000 creates a second per Redis core; 10^6 / 2,000 µs = 500 per Baton core; 4 cores.
    expect(part).to.contain('| create a task (`tools/call`) | 2,000 | 500 | 4.0 |');
    expect(part).to.contain('| `tasks/get` | 50,000 | 2,500 | 20.0 |');
    expect(capacityPart({ store: 'redis', creates: op(500, 2000), gets: op(900, 400) })).to.equal('');
  });
});
