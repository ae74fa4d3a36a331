/**
 * The task runner on its own, with the in-process store and queue: a task is created where a
 * request hands over (FlowEngine with `handover`), and its steps run on the queue.
 */
import { expect } from 'chai';
import { fetchThenCount } from '../round/fixtures.js';
import {
  defineTool,
  FlowEngine,
  MemoryTaskQueue,
  MemoryTaskStore,
  startTaskRuntime,
  ToolRegistry,
  type TaskRecord,
  type ToolDefinition,
  isTerminalStatus,
} from '../../../server/engine/index.js';
import { testKeyRing } from '../fixtures/keys.js';

const OWNER = 'alice';

/** Runs `tool` as a task from its first round to a terminal status, and answers the stored record. */
async function runAsTask(tool: ToolDefinition): Promise<TaskRecord> {
  const registry = new ToolRegistry([tool]);
  const engine = new FlowEngine({ keyRing: testKeyRing() });
  const store = new MemoryTaskStore();
  const runtime = startTaskRuntime({
    store,
    queue: new MemoryTaskQueue(),
    tools: registry,
    versionOf: (machine) => engine.versionOf(machine),
    toWireError: (error) => ({ code: -32603, message: error.message }),
    logger: { info() {}, warn() {}, error() {} },
  });
  try {
    const outcome = await engine.run({
      flow: tool,
      arguments: {},
      principal: OWNER,
      clientCapabilities: {},
      handover: true,
    });
    if (outcome.kind !== 'task') throw new Error(`expected a handover, got ${outcome.kind}`);
    const created = await runtime.manager.create({
      tool: tool.name,
      machine: tool.machine,
      arguments: {},
      principal: OWNER,
      clientCapabilities: {},
      snapshot: outcome.snapshot,
      timers: outcome.timers,
    });
    const taskId = created.taskId as string;
    const deadline = Date.now() + 5000;
    for (;;) {
      const record = (await store.get(taskId))!;
      if (isTerminalStatus(record.status)) return record;
      if (Date.now() > deadline) throw new Error(`task still ${record.status}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    await runtime.close();
  }
}

describe('TaskRunner', () => {
  it('judges a step after the queued events have run: a child that finished at once is not read as stuck', async () => {
    // The promise's result moves the machine into `counting`, whose observable completes while it
    // starts: its done event reaches the machine after the snapshot that shows `counting` with
    // nothing running. Judged on that snapshot the task would be stuck; the machine finishes.
    const tool = defineTool({
      name: 'fetch-then-count',
      description: 'Fetches, then counts what it fetched.',
      inputSchema: { type: 'object' },
      task: 'required',
      machine: fetchThenCount,
    });
    const record = await runAsTask(tool);
    expect(record.status, record.statusMessage).to.equal('completed');
    expect(record.result).to.deep.equal({ content: [{ type: 'text', text: 'counted' }] });
  });
});
