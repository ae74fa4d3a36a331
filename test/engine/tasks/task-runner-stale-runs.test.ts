/**
 * Two runs of one task's step in one process: a job whose lock ran out is run again by the same
 * instance while its first run still goes on (a frozen instance wakes and takes its own job back).
 * The later run takes the task with a claim of its own; the stale run writes nothing after that,
 * whatever the record then holds (another run's claim, or none), and neither run takes the
 * other's cancel controller away. Driven by hand (stale-step-harness.ts): gates instead of
 * sleeps, a wall clock moved instead of timers waited for.
 */
import { expect } from 'chai';
import { isTerminalStatus, type TaskRecord } from '../../../server/engine/index.js';
import { GO, OWNER, StaleStepHarness } from './stale-step-harness.js';

/** Questions asked under a key other than the first `go`, in any record written. */
function reasked(writes: TaskRecord[]): string[] {
  return writes.flatMap((w) => Object.keys(w.asked).filter((key) => key !== 'go'));
}

/** Whether `probe` comes true within a second, looked at every 5 ms (a timer of the runner's own). */
async function eventually(probe: () => Promise<boolean>): Promise<boolean> {
  for (let n = 0; n < 200; n++) {
    if (await probe()) return true;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return probe();
}

function terminalWrites(writes: TaskRecord[]): TaskRecord[] {
  return writes.filter((w) => isTerminalStatus(w.status));
}

// Every test starts from a new harness and a task created on it, its first job queued, not run.
describe('TaskRunner, steps of one task', () => {
  let h: StaleStepHarness;
  let taskId: string;

  beforeEach(async () => {
    h = new StaleStepHarness();
    taskId = await h.createTask();
  });
  afterEach(() => h.close());

  /** The task ended completed, written terminal once, its question never asked again, its effect run once. */
  async function expectCompletedOnce(): Promise<void> {
    expect((await h.record(taskId)).status).to.equal('completed');
    expect(terminalWrites(h.store.writes)).to.have.length(1);
    expect(reasked(h.store.writes)).to.deep.equal([]);
    expect(h.effects).to.equal(1);
  }

  describe('two runs of one step in one process', () => {
    /** Starts the `start` job twice: the first run waits on a gate, the second takes the task from it. */
    async function twoRuns(secondHeld: boolean) {
      const first = h.holdWork();
      const second = secondHeld ? h.holdWork() : undefined;
      const stale = h.advance(taskId, 'start');
      await h.workStarted(1);
      const takeover = h.advance(taskId, 'start');
      await h.workStarted(2);
      return { first, second, stale, takeover };
    }

    it('writes nothing from the stale run while the later run holds the task, and completes once', async () => {
      const { first, second, stale, takeover } = await twoRuns(true);
      const taken = await h.record(taskId);
      expect(taken).to.include({ phase: 'running', status: 'working' });
      const before = h.store.writes.length;
      first.open();
      await stale;
      // Its work done, the stale run would report progress and ask `go`: the later run's claim refuses both.
      expect(h.writesSince(before)).to.deep.equal([]);
      expect(await h.record(taskId)).to.deep.equal(taken);
      expect(h.jobs, 'jobs the stale run scheduled').to.deep.equal([]);

      second!.open();
      await takeover;
      const asking = await h.record(taskId);
      expect(asking).to.include({ status: 'input_required', phase: 'idle' });
      expect(Object.keys(asking.asked)).to.deep.equal(['go']);
      expect(await h.manager.update(taskId, OWNER, GO)).to.equal(true);
      await h.runDue();
      h.wallAhead = 10_000;
      await h.runDue();
      await expectCompletedOnce();
    });

    it('writes nothing from a stale run that ends after the later run paused, and the next step runs here', async () => {
      const { first, stale, takeover } = await twoRuns(false);
      await takeover;
      expect(await h.manager.update(taskId, OWNER, GO)).to.equal(true);
      await h.runDue();
      // The later run's step is over: the task rests on its durable timer, claimed by no run.
      const resting = await h.record(taskId);
      expect(resting).to.include({ status: 'working', phase: 'idle', runningStep: undefined });
      expect(resting.timers).to.have.length(1);
      const before = h.store.writes.length;
      first.open();
      await stale;
      expect(h.writesSince(before)).to.deep.equal([]);
      expect(await h.record(taskId)).to.deep.equal(resting);
      // The run that took over said in the timeline that the earlier run lost its claim.
      const ends = (resting.history?.entries ?? []).filter((e) => e.e === 'end').map((e) => e.x);
      expect(ends.slice(0, 2)).to.deep.equal(['lost', 'asked']);
      // The timer's job runs the next step on this same runner, the stale run's runner.
      h.wallAhead = 10_000;
      await h.runDue();
      await expectCompletedOnce();
    });

    it('never asks again a question already answered, though a stale run ends while the answer waits', async () => {
      const { first, stale, takeover } = await twoRuns(false);
      await takeover;
      expect(await h.manager.update(taskId, OWNER, GO)).to.equal(true);
      const answered = await h.record(taskId);
      expect(answered).to.include({ status: 'working', phase: 'queued' });
      const before = h.store.writes.length;
      first.open();
      await stale;
      expect(h.writesSince(before)).to.deep.equal([]);
      await h.runDue();
      h.wallAhead = 10_000;
      await h.runDue();
      const after = h.writesSince(before);
      expect(after.filter((w) => w.status === 'input_required')).to.deep.equal([]);
      expect(reasked(h.store.writes)).to.deep.equal([]);
      expect(after.every((w) => (w.askCounts.go ?? 0) <= 1)).to.equal(true);
      expect((await h.record(taskId)).status).to.equal('completed');
    });

    it('ends an acknowledged update in a terminal status, though a stale run ends during a later step', async () => {
      const { first, stale, takeover } = await twoRuns(false);
      await takeover;
      expect(await h.manager.update(taskId, OWNER, GO)).to.equal(true);
      await h.runDue();
      // The timer's step runs the effect, held mid-way, while the stale run of the first step ends.
      const effect = h.holdEffect();
      h.wallAhead = 10_000;
      const last = h.runDue();
      expect(await h.within(5000, () => h.effects === 1)).to.equal(true);
      const running = await h.record(taskId);
      expect(running.phase).to.equal('running');
      const before = h.store.writes.length;
      first.open();
      await stale;
      expect(h.writesSince(before)).to.deep.equal([]);
      effect.open();
      await last;
      await expectCompletedOnce();
    });

    it('writes no end from a stale run that fails while the later run holds the task', async () => {
      const { first, second, stale, takeover } = await twoRuns(true);
      const taken = await h.record(taskId);
      const before = h.store.writes.length;
      first.fail();
      await stale;
      // The stale run's step failed (a tool error, a completed task): the later run's claim refuses it.
      expect(h.writesSince(before)).to.deep.equal([]);
      expect(await h.record(taskId)).to.deep.equal(taken);
      second!.open();
      await takeover;
      expect((await h.record(taskId)).status).to.equal('input_required');
    });

    it('cancels every run of the task in this process', async () => {
      const { stale, takeover } = await twoRuns(true);
      expect(await h.manager.cancel(taskId, OWNER)).to.equal(true);
      expect(await h.within(5000, () => h.workSignals.every((signal) => signal.aborted))).to.equal(true);
      await Promise.all([stale, takeover]);
      const cancelled = await h.record(taskId);
      expect(cancelled.status).to.equal('cancelled');
      expect(terminalWrites(h.store.writes)).to.have.length(1);
    });

    it('keeps the later run cancellable once the stale run has ended', async () => {
      const { first, stale, takeover } = await twoRuns(true);
      first.open();
      await stale;
      expect(await h.manager.cancel(taskId, OWNER)).to.equal(true);
      expect(await h.within(5000, () => h.workSignals[1]!.aborted)).to.equal(true);
      await takeover;
      expect((await h.record(taskId)).status).to.equal('cancelled');
    });
  });

  describe('writes that no step claim makes', () => {
    it('ends a task cancelled before its step ran, without running it', async () => {
      expect(await h.manager.cancel(taskId, OWNER)).to.equal(true);
      expect((await h.record(taskId)).cancelRequested).to.equal(true);
      await h.advance(taskId, 'start');
      expect((await h.record(taskId)).status).to.equal('cancelled');
      expect(h.workSignals).to.have.length(0);
    });

    it('stops an expired task running under another job rather than write over its step, which then ends it', async () => {
      // A first step shows as running once it has run a moment (here at once): from then on, as any step.
      h.close();
      h = new StaleStepHarness({ handedStartWriteMs: 0 });
      taskId = await h.createTask();
      h.holdWork();
      const step = h.advance(taskId, 'start');
      await h.workStarted(1);
      expect(await eventually(async () => (await h.record(taskId)).phase === 'running')).to.equal(true);
      h.clockAhead = 25 * 60 * 60 * 1000;
      const before = h.store.writes.length;
      await h.advance(taskId, 'expire');
      expect(h.writesSince(before)).to.deep.equal([]);
      expect(await h.within(5000, () => h.workSignals[0]!.aborted)).to.equal(true);
      await step;
      const expired = await h.record(taskId);
      expect(expired.status).to.equal('failed');
      expect(expired.error?.data).to.deep.equal({ reason: 'task_expired' });
    });

    it('ends an expired task whose first step has not written its start yet, and stops that step', async () => {
      h.holdWork();
      const step = h.advance(taskId, 'start');
      await h.workStarted(1);
      // The step runs on the claim stored with the task, and has written nothing.
      expect(await h.record(taskId)).to.include({ phase: 'queued', runningJob: `${taskId}.start` });
      h.clockAhead = 25 * 60 * 60 * 1000;
      await h.advance(taskId, 'expire');
      const expired = await h.record(taskId);
      expect(expired.status).to.equal('failed');
      expect(expired.error?.data).to.deep.equal({ reason: 'task_expired' });
      expect(await h.within(5000, () => h.workSignals[0]!.aborted)).to.equal(true);
      const before = h.store.writes.length;
      await step;
      expect(h.writesSince(before)).to.deep.equal([]);
      expect(await h.record(taskId)).to.deep.equal(expired);
    });

    it('ends an expired task that no step runs', async () => {
      h.clockAhead = 25 * 60 * 60 * 1000;
      await h.advance(taskId, 'expire');
      const expired = await h.record(taskId);
      expect(expired.status).to.equal('failed');
      expect(expired.error?.data).to.deep.equal({ reason: 'task_expired' });
      expect(h.workSignals).to.have.length(0);
    });
  });

  describe('a first step on the claim its task was stored with', () => {
    it('writes no claim: only its progress and its question, with its start in the timeline', async () => {
      const created = await h.record(taskId);
      expect(created).to.include({ phase: 'queued', runningJob: `${taskId}.start` });
      expect(created.runningStep).to.be.a('string').that.is.not.empty;
      const before = h.store.writes.length;
      await h.advance(taskId, 'start');
      const writes = h.writesSince(before);
      expect(writes.map((w) => [w.phase, w.statusMessage])).to.deep.equal([
        ['queued', 'Worked'],
        ['idle', 'Waiting for input: go'],
      ]);
      expect(writes[1]).to.include({ status: 'input_required', runningStep: undefined });
      const entries = writes[1]!.history?.entries ?? [];
      expect(entries.map((e) => e.e)).to.deep.equal(['created', 'start', 'end']);
      expect(entries[1]!.i).to.be.a('string').that.is.not.empty;
      expect(entries[2]).to.include({ x: 'asked', i: entries[1]!.i });
    });

    it('writes its start alone once it has run a moment, and records it once', async () => {
      h.close();
      h = new StaleStepHarness({ handedStartWriteMs: 0 });
      taskId = await h.createTask();
      const work = h.holdWork();
      const step = h.advance(taskId, 'start');
      await h.workStarted(1);
      expect(await eventually(async () => (await h.record(taskId)).phase === 'running')).to.equal(true);
      work.open();
      await step;
      const asking = await h.record(taskId);
      expect(asking).to.include({ status: 'input_required', phase: 'idle' });
      expect((asking.history?.entries ?? []).map((e) => e.e)).to.deep.equal(['created', 'start', 'end']);
    });

    it('is stopped by a cancel before it has written anything, and ends the task cancelled', async () => {
      h.holdWork();
      const step = h.advance(taskId, 'start');
      await h.workStarted(1);
      expect(await h.manager.cancel(taskId, OWNER)).to.equal(true);
      expect(await h.within(5000, () => h.workSignals[0]!.aborted)).to.equal(true);
      await step;
      const cancelled = await h.record(taskId);
      expect(cancelled.status).to.equal('cancelled');
      expect((cancelled.history?.entries ?? []).map((e) => [e.e, e.x])).to.deep.equal([
        ['created', undefined],
        ['start', undefined],
        ['end', 'cancelled'],
      ]);
    });
  });
});
