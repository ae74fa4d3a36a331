import { expect } from 'chai';
import { toDetailedTask, type TaskRecord } from '../../../server/engine/tasks/task-record.js';

/** A record as a store may hold it, written before completed results carried `resultType`. */
function stored(overrides: Partial<TaskRecord>): TaskRecord {
  return {
    taskId: 't1',
    principal: 'p',
    tool: 'ship-release',
    arguments: {},
    version: 'v',
    clientCapabilities: {},
    status: 'working',
    phase: 'idle',
    createdAt: 0,
    lastUpdatedAt: 0,
    ttlMs: 1000,
    pollIntervalMs: 100,
    timers: [],
    asked: {},
    answers: {},
    askCounts: {},
    cancelRequested: false,
    ...overrides,
  };
}

describe('toDetailedTask', () => {
  it('gives a completed task a CallToolResult of this revision, even from a record stored without resultType', () => {
    const task = toDetailedTask(
      stored({
        status: 'completed',
        statusMessage: 'Answers received',
        result: { content: [{ type: 'text', text: 'ok' }] },
      }),
    );
    expect(task.result).to.deep.equal({ content: [{ type: 'text', text: 'ok' }], resultType: 'complete' });
  });

  it('ends a completed task with a final status message, not the last step it reported', () => {
    const ok = toDetailedTask(
      stored({ status: 'completed', statusMessage: 'Answers received', result: { content: [] } }),
    );
    expect(ok.statusMessage).to.equal('Completed');
    const toolError = toDetailedTask(
      stored({ status: 'completed', statusMessage: 'Baking', result: { content: [], isError: true } }),
    );
    expect(toolError.statusMessage).to.equal('Completed with a tool error');
    expect((toolError.result as { isError: boolean }).isError).to.equal(true);
  });

  it('leaves the other statuses without a result', () => {
    expect(toDetailedTask(stored({ status: 'cancelled', statusMessage: 'Cancelled' }))).to.not.have.property('result');
  });
});
