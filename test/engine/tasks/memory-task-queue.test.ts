import { expect } from 'chai';
import { MemoryTaskQueue } from '../../../server/engine/index.js';

describe('MemoryTaskQueue', () => {
  it('runs at most `concurrency` steps at once; the others wait their turn and all run', async () => {
    const queue = new MemoryTaskQueue({ concurrency: 3 });
    let running = 0;
    let most = 0;
    const order: string[] = [];
    const releases: Array<() => void> = [];
    let allDone!: () => void;
    const done = new Promise<void>((resolve) => (allDone = resolve));
    queue.start(async (taskId) => {
      running += 1;
      most = Math.max(most, running);
      order.push(taskId);
      await new Promise<void>((resolve) => releases.push(resolve));
      running -= 1;
      if (order.length === 10 && running === 0) allDone();
    });
    for (let i = 0; i < 10; i++) await queue.schedule(`t${i}`, { jobKey: 'start' });
    // Release the running steps one at a time until all ten have run.
    while (order.length < 10 || running > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      releases.shift()?.();
    }
    await done;
    expect(most).to.equal(3);
    expect(order).to.deep.equal(Array.from({ length: 10 }, (_, i) => `t${i}`));
    await queue.close();
  });

  it('runs the same job key once while it waits', async () => {
    const queue = new MemoryTaskQueue({ concurrency: 1 });
    const seen: string[] = [];
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    let finished!: () => void;
    const allRan = new Promise<void>((resolve) => (finished = resolve));
    queue.start(async (taskId, jobId) => {
      seen.push(jobId);
      if (taskId === 'a') await blocked;
      if (taskId === 'c') finished();
    });
    await queue.schedule('a', { jobKey: 'start' });
    await new Promise((resolve) => setImmediate(resolve));
    await queue.schedule('b', { jobKey: 'start' });
    await queue.schedule('b', { jobKey: 'start' });
    await queue.schedule('c', { jobKey: 'start' });
    release();
    await allRan;
    expect(seen).to.deep.equal(['a.start', 'b.start', 'c.start']);
    await queue.close();
  });
});
