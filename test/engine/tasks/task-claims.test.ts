/**
 * The claim rule on its own (task-claims.ts): only the run whose token the record holds may write,
 * "no claim" authorizes no run, and what no step claims is written only while no other job runs
 * a step. And the runs of a task kept in one process (running-steps.ts): each run is its own.
 */
import { expect } from 'chai';
import { holdsClaim, isFree, newClaim, type StepRun } from '../../../server/engine/tasks/task-claims.js';
import { RunningSteps } from '../../../server/engine/tasks/running-steps.js';

function run(taskId: string): StepRun {
  return { taskId, jobId: `${taskId}.start`, claim: newClaim(), controller: new AbortController(), visited: new Set() };
}

describe('task claims', () => {
  it('holds the task only with the exact token the record holds', () => {
    const claim = newClaim();
    expect(holdsClaim({ runningStep: claim }, claim)).to.equal(true);
    expect(holdsClaim({ runningStep: newClaim() }, claim)).to.equal(false);
  });

  it('never reads "no claim" as holding the task, on either side', () => {
    expect(holdsClaim({ runningStep: undefined }, newClaim())).to.equal(false);
    expect(holdsClaim({}, newClaim())).to.equal(false);
    expect(holdsClaim({ runningStep: undefined }, undefined as unknown as string)).to.equal(false);
    expect(holdsClaim({ runningStep: '' }, '')).to.equal(false);
  });

  it('gives a new token to each run', () => {
    expect(newClaim()).to.not.equal(newClaim());
  });

  it('lets a write no step claims through only while no other job runs a step', () => {
    expect(isFree({ phase: 'idle', runningJob: undefined }, 'j1')).to.equal(true);
    expect(isFree({ phase: 'queued', runningJob: undefined }, 'j1')).to.equal(true);
    // The same job run again: its earlier run's instance is taken for gone.
    expect(isFree({ phase: 'running', runningJob: 'j1' }, 'j1')).to.equal(true);
    expect(isFree({ phase: 'running', runningJob: 'j2' }, 'j1')).to.equal(false);
  });
});

describe('RunningSteps', () => {
  it('aborts every run of the task in this process, and no other task', () => {
    const steps = new RunningSteps();
    const [a, b, other] = [run('t1'), run('t1'), run('t2')];
    for (const r of [a, b, other]) steps.add(r);
    steps.abort('t1');
    expect([a, b, other].map((r) => r.controller.signal.aborted)).to.deep.equal([true, true, false]);
  });

  it('removes only the run that ended, whichever ends first', () => {
    const steps = new RunningSteps();
    const [stale, takeover] = [run('t1'), run('t1')];
    steps.add(stale);
    steps.add(takeover);
    steps.remove(stale);
    expect(steps.count('t1')).to.equal(1);
    steps.abort('t1');
    expect(takeover.controller.signal.aborted).to.equal(true);
    steps.remove(takeover);
    expect(steps.count('t1')).to.equal(0);
  });
});
