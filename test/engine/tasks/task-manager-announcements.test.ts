/**
 * What TaskManager tells every instance (the store's `changed` events, which subscriptions/listen
 * follows): answers it takes and expiries it writes, each once, in the write that stores them, and
 * nothing for a change it does not make.
 */
import { expect } from 'chai';
import { GO, OWNER, StaleStepHarness } from './stale-step-harness.js';

describe('TaskManager, what it announces', () => {
  let h: StaleStepHarness;
  let taskId: string;
  let heard: string[];
  let stop: () => void;

  beforeEach(async () => {
    h = new StaleStepHarness();
    taskId = await h.createTask();
    await h.advance(taskId, 'start');
    expect((await h.record(taskId)).status).to.equal('input_required');
    heard = [];
    stop = h.store.listen((id, kind) => heard.push(`${kind} ${id}`));
  });
  afterEach(() => {
    stop();
    h.close();
  });

  const settled = () => new Promise((resolve) => setImmediate(resolve));

  it('announces answers taken by tasks/update, once', async () => {
    expect(await h.manager.update(taskId, OWNER, GO)).to.equal(true);
    await settled();
    expect(heard).to.deep.equal([`changed ${taskId}`]);
    expect((await h.record(taskId)).phase).to.equal('queued');
  });

  it('announces nothing for answers it does not take', async () => {
    expect(await h.manager.update(taskId, OWNER, { never: { action: 'accept', content: {} } })).to.equal(true);
    await settled();
    expect(heard).to.deep.equal([]);
  });

  it('announces an expiry it writes, once, and nothing when the task has ended already', async () => {
    h.clockAhead = 25 * 60 * 60 * 1000;
    await h.manager.expire(taskId);
    await settled();
    expect((await h.record(taskId)).status).to.equal('failed');
    expect(heard).to.deep.equal([`changed ${taskId}`]);
    await h.manager.expire(taskId);
    await settled();
    expect(heard).to.deep.equal([`changed ${taskId}`]);
  });
});
