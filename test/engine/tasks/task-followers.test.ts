/**
 * One task change, many followers: the record is read once and serialized once, and every
 * follower gets that same view; a follower of another principal gets nothing.
 */
import { expect } from 'chai';
import { MemoryTaskStore, TaskFollowers, type TaskRecord, type TaskView } from '../../../server/engine/index.js';

class CountingStore extends MemoryTaskStore {
  reads = 0;
  override async get(taskId: string): Promise<TaskRecord | undefined> {
    this.reads += 1;
    return super.get(taskId);
  }
  override async peek<T>(taskId: string, read: (record: Readonly<TaskRecord>) => T): Promise<T | undefined> {
    this.reads += 1;
    return super.peek(taskId, read);
  }
}

function record(taskId: string, principal: string): TaskRecord {
  const now = Date.now();
  return {
    taskId,
    principal,
    tool: 't',
    arguments: { text: 'x'.repeat(100_000) },
    version: 'v',
    clientCapabilities: {},
    status: 'working',
    phase: 'running',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 1000,
    timers: [],
    asked: {},
    answers: {},
    askCounts: {},
    cancelRequested: false,
  };
}

describe('TaskFollowers', () => {
  it('reads and serializes a change once for fifty followers, and gives each the same view', async () => {
    const store = new CountingStore();
    await store.create(record('t1', 'alice'));
    const followers = new TaskFollowers(store);
    const seen: TaskView[] = [];
    let all!: () => void;
    const delivered = new Promise<void>((resolve) => (all = resolve));
    for (let i = 0; i < 50; i++) {
      followers.add('t1', 'alice', (view) => {
        seen.push(view);
        if (seen.length === 50) all();
      });
    }
    store.reads = 0;
    await store.update('t1', (r) => ({ ...r, statusMessage: 'step 2' }));
    await store.publish('t1', 'changed');
    await delivered;
    expect(store.reads).to.equal(1);
    expect(new Set(seen).size).to.equal(1);
    expect(seen[0]!.task.statusMessage).to.equal('step 2');
    expect(seen[0]!.bytes()).to.equal(seen[0]!.bytes());
  });

  it('never delivers a task to a follower of another principal, and stops when told', async () => {
    const store = new CountingStore();
    await store.create(record('t2', 'alice'));
    const followers = new TaskFollowers(store);
    const mallory: TaskView[] = [];
    const alice: TaskView[] = [];
    followers.add('t2', 'mallory', (view) => mallory.push(view));
    let got!: () => void;
    const arrived = new Promise<void>((resolve) => (got = resolve));
    const stop = followers.add('t2', 'alice', (view) => {
      alice.push(view);
      got();
    });
    await store.publish('t2', 'changed');
    await arrived;
    expect(alice).to.have.length(1);
    expect(mallory).to.deep.equal([]);
    stop();
    expect(followers.count('t2')).to.equal(1);
  });
});
