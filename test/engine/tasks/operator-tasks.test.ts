/**
 * OperatorTasks: every principal's tasks for an operator. Cancel goes the way tasks/cancel goes
 * (task-cancel.ts); the stuck rules name what an operator can act on; the questions of a real
 * task carry when they were asked and answered, never what was answered.
 */
import { expect } from 'chai';
import {
  FlowEngine,
  MemoryTaskQueue,
  MemoryTaskStore,
  OperatorTasks,
  startTaskRuntime,
  ToolRegistry,
  type TaskRecord,
  type TaskSummary,
} from '../../../server/engine/index.js';
import { stuckReasons, DEFAULT_STUCK_THRESHOLDS } from '../../../server/engine/tasks/index.js';
import { testKeyRing } from '../fixtures/keys.js';
import { countingShipRelease } from '../../helpers/counting-ship-release.js';
import { listedRecord, SECRET_ANSWER } from './task-listing-cases.js';

const NOW = 1_800_000_000_000;
const MINUTE = 60_000;

function summary(overrides: Partial<TaskSummary>): TaskSummary {
  return {
    taskId: 't',
    tool: 'x',
    version: 'v',
    status: 'working',
    phase: 'idle',
    states: [],
    createdAt: NOW - 10 * MINUTE,
    lastUpdatedAt: NOW,
    ttlMs: 24 * 60 * MINUTE,
    expiresAt: NOW + 24 * 60 * MINUTE,
    principal: 'p',
    claimed: false,
    cancelRequested: false,
    questions: [],
    timers: [],
    ...overrides,
  };
}

describe('OperatorTasks', () => {
  it('cancels any principal’s waiting task at once, and asks a running step to stop', async () => {
    const store = new MemoryTaskStore({ clock: () => NOW });
    const events: string[] = [];
    store.listen((id, kind) => events.push(`${kind} ${id}`));
    const operator = new OperatorTasks({ store, clock: () => NOW });
    await store.create(listedRecord('waiting', { principal: 'someone-else', createdAt: NOW, lastUpdatedAt: NOW }));
    await store.create(
      listedRecord('running', { phase: 'running', status: 'working', createdAt: NOW, lastUpdatedAt: NOW }),
    );
    expect(await operator.cancel('waiting')).to.equal('cancelled');
    expect(await operator.cancel('running')).to.equal('requested');
    expect(await operator.cancel('waiting')).to.equal('terminal');
    expect(await operator.cancel('nope')).to.equal('missing');
    expect(await operator.cancel('x'.repeat(65))).to.equal('missing');
    const waiting = (await store.get('waiting')) as TaskRecord;
    expect(waiting).to.include({ status: 'cancelled', cancelRequested: true });
    expect(waiting.arguments).to.deep.equal({});
    expect((await store.get('running'))!).to.include({ status: 'working', cancelRequested: true });
    expect(events).to.deep.equal(['changed waiting', 'cancel running']);
  });

  it('shows one task with its result once completed, and nothing for an unknown id', async () => {
    const store = new MemoryTaskStore({ clock: () => NOW });
    const operator = new OperatorTasks({ store, clock: () => NOW });
    await store.create(
      listedRecord('done', {
        status: 'completed',
        snapshot: undefined,
        result: { content: [{ type: 'text', text: 'shipped' }] },
        createdAt: NOW,
        lastUpdatedAt: NOW,
      }),
    );
    expect((await operator.show('done'))!.result).to.deep.equal({ content: [{ type: 'text', text: 'shipped' }] });
    expect(await operator.show('unknown')).to.equal(undefined);
  });

  it('names why a task looks stuck, by its phase, timers, ttl and quiet time', () => {
    const at = (reasons: string[]) => reasons;
    const t = DEFAULT_STUCK_THRESHOLDS;
    expect(at(stuckReasons(summary({ phase: 'running', lastUpdatedAt: NOW - t.runningMs - 1 }), NOW, t))).to.deep.equal(
      ['running_unchanged'],
    );
    expect(stuckReasons(summary({ phase: 'running', lastUpdatedAt: NOW - t.runningMs }), NOW, t)).to.deep.equal([]);
    expect(stuckReasons(summary({ phase: 'queued', lastUpdatedAt: NOW - 2 * MINUTE }), NOW, t)).to.deep.equal([
      'queued_unstarted',
    ]);
    expect(
      stuckReasons(
        summary({ timers: [{ id: 'a', dueAt: NOW - 2 * MINUTE }], lastUpdatedAt: NOW - 3 * MINUTE }),
        NOW,
        t,
      ),
    ).to.deep.equal(['timer_overdue']);
    expect(stuckReasons(summary({ expiresAt: NOW }), NOW, t)).to.deep.equal(['expired']);
    expect(stuckReasons(summary({ status: 'input_required', lastUpdatedAt: NOW - 61 * MINUTE }), NOW, t)).to.deep.equal(
      ['unchanged'],
    );
    expect(stuckReasons(summary({ status: 'failed', expiresAt: NOW - 1 }), NOW, t)).to.deep.equal([]);
  });

  it('lists the stuck tasks only, with their reasons', async () => {
    const store = new MemoryTaskStore({ clock: () => NOW });
    const operator = new OperatorTasks({ store, clock: () => NOW });
    const quiet = NOW - 10 * MINUTE;
    await store.create(
      listedRecord('frozen', { phase: 'running', status: 'working', createdAt: quiet, lastUpdatedAt: quiet }),
    );
    await store.create(listedRecord('asking', { createdAt: quiet, lastUpdatedAt: quiet }));
    await store.create(
      listedRecord('fresh', { phase: 'running', status: 'working', createdAt: NOW, lastUpdatedAt: NOW }),
    );
    const page = await operator.stuck();
    expect(page.tasks.map((t) => [t.taskId, t.reasons])).to.deep.equal([['frozen', ['running_unchanged']]]);
    const stricter = await operator.stuck({ thresholds: { unchangedMs: 5 * MINUTE } });
    expect(stricter.tasks.map((t) => t.taskId)).to.deep.equal(['frozen', 'asking']);
  });

  it('records when a real task’s question was asked and answered, and lists neither the answer nor the arguments', async () => {
    let now = NOW;
    const clock = () => now;
    const { tool } = countingShipRelease({ stepMs: 1 });
    const registry = new ToolRegistry([tool]);
    const engine = new FlowEngine({ keyRing: testKeyRing() });
    const store = new MemoryTaskStore({ clock });
    const runtime = startTaskRuntime({
      store,
      queue: new MemoryTaskQueue(),
      tools: registry,
      versionOf: (machine) => engine.versionOf(machine),
      toWireError: (error) => ({ code: -32603, message: error.message }),
      logger: { info() {}, warn() {}, error() {} },
      clock,
    });
    try {
      const args = { service: 'api', version: 'secret-version-1.2.3', bakeSeconds: 3600 };
      const outcome = await engine.run({
        flow: tool,
        arguments: args,
        principal: 'alice',
        clientCapabilities: {},
        handover: true,
      });
      if (outcome.kind !== 'task') throw new Error(`expected a handover, got ${outcome.kind}`);
      const { taskId } = (await runtime.manager.create({
        tool: tool.name,
        machine: tool.machine,
        arguments: args,
        principal: 'alice',
        clientCapabilities: { elicitation: {} },
        snapshot: outcome.snapshot,
        timers: outcome.timers,
      })) as { taskId: string };
      const waitFor = async (done: (t: TaskSummary) => boolean) => {
        for (let n = 0; n < 500; n++) {
          const [task] = (await runtime.manager.operator.list()).tasks;
          if (task && done(task)) return task;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        throw new Error('the task did not get there');
      };
      now += 1000;
      const asking = await waitFor((t) => t.status === 'input_required');
      expect(asking.states).to.deep.equal(['awaitingApproval']);
      expect(asking.questions).to.deep.equal([
        { key: 'approve', questionKey: 'approve', answered: false, askedAt: NOW + 1000 },
      ]);
      now += 5000;
      const answer = { action: 'accept', content: { approve: true, approver: SECRET_ANSWER } };
      expect(await runtime.manager.update(taskId, 'alice', { approve: answer })).to.equal(true);
      const baking = await waitFor((t) => t.states.includes('baking'));
      expect(baking.timers).to.have.length(1);
      const detail = await runtime.manager.operator.show(taskId);
      expect(JSON.stringify(detail)).not.to.include(SECRET_ANSWER).and.not.to.include('secret-version');
      expect((await store.get(taskId))!.answeredAt).to.equal(undefined); // a new pause: its questions are new
      // The answer's time, read between the answer and the next step:
      const record = await runtime.manager.operator.cancel(taskId);
      expect(record).to.equal('cancelled');
    } finally {
      await runtime.close();
    }
  });
});
