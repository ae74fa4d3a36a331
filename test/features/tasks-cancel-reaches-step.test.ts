/**
 * `tasks/cancel` reaches the step that is running, wherever it runs. The step here never ends on
 * its own (test/fixtures/long-step-tools.ts), so the task can only end `cancelled` within the bound
 * if the cancel was delivered to the instance running it and its abort signal fired there. (The
 * example's 1.2 s build ended on its own and then saw the cancel flag, which let every cancel test
 * pass with a cancel that was never published.)
 */
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyEntry } from '../../server/engine/index.js';
import { longStepTool, LONG_STEP } from '../fixtures/long-step-tools.js';
import { callTool } from '../helpers/mcp-http.js';
import { REDIS, requireBinaries } from '../helpers/required-binary.js';
import { startRedis, type RunningRedis } from '../../bench/redis/index.js';
import { BatonFleet, type BatonInstance } from '../helpers/spawn-baton.js';
import { resultOf, TASK_CLIENT, taskRpc, waitForTask } from '../helpers/tasks.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

/** How long a cancelled step may take to stop: generous for a loaded machine, far below "never". */
const STOP_BOUND_MS = 15_000;

/** The journal's lines for one task: `start <taskId> <pid>` and `abort <taskId> <pid>`. */
async function journalLine(file: string, kind: 'start' | 'abort', taskId: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
    const line = lines.find((l) => l.startsWith(`${kind} ${taskId} `));
    if (line) return { pid: Number(line.split(' ')[2]) };
    if (Date.now() > deadline) throw new Error(`no "${kind} ${taskId}" in the journal within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function startLongStep(url: string): Promise<string> {
  return resultOf(await callTool(url, LONG_STEP, {}, {}, { capabilities: TASK_CLIENT })).taskId as string;
}

describe('tasks/cancel reaches the running step', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'baton-cancel-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('one instance, tasks in memory', () => {
    let server: RunningServer;
    let journal: string;
    before(async () => {
      journal = join(dir, 'memory');
      process.env.BATON_TEST_JOURNAL = journal;
      server = await startTestServer({ tools: [longStepTool], docs: false });
    });
    after(async () => {
      delete process.env.BATON_TEST_JOURNAL;
      await server.baton.close();
      await server.close();
    });

    it('aborts the step: its abort is observed and the task ends cancelled within the bound', async () => {
      const taskId = await startLongStep(server.url);
      await journalLine(journal, 'start', taskId, 10_000);
      resultOf(await taskRpc(server.url, 'tasks/cancel', { taskId }));
      const ended = await waitForTask(server.url, taskId, (t) => t.status === 'cancelled', {
        timeoutMs: STOP_BOUND_MS,
      });
      expect(ended.status).to.equal('cancelled');
      expect((await journalLine(journal, 'abort', taskId, 1_000)).pid).to.equal(process.pid);
    });
  });

  describe('a fleet sharing Redis (BullMQ): cancelled through another instance', () => {
    let redis: RunningRedis | undefined;
    const fleet = new BatonFleet();
    const instances: BatonInstance[] = [];
    let journal: string;

    before(async function () {
      requireBinaries(this, REDIS);
      redis = await startRedis();
      journal = join(dir, 'fleet');
      const keys = generateKeyEntry('cancel');
      // One after the other: cold tsx starts at once, on a loaded machine, outran the ready timeout.
      for (let i = 0; i < 2; i++) {
        instances.push(
          await fleet.start({
            keys,
            args: ['--tools', 'test/fixtures/long-step-tools.ts'],
            env: { BATON_REDIS_URL: redis.url, BATON_TEST_JOURNAL: journal, BATON_TASK_LOCK_MS: '2000' },
            readyTimeoutMs: 90_000,
          }),
        );
      }
    });
    after(async () => {
      await fleet.stopAll();
      await redis?.stop();
    });

    it('the instance running the step aborts it, and the task ends cancelled within the bound', async () => {
      const taskId = await startLongStep(instances[0]!.url);
      const { pid: runner } = await journalLine(journal, 'start', taskId, 20_000);
      const other = instances.find((instance) => instance.pid !== runner)!;
      resultOf(await taskRpc(other.url, 'tasks/cancel', { taskId }));
      const ended = await waitForTask(other.url, taskId, (t) => t.status === 'cancelled', {
        timeoutMs: STOP_BOUND_MS,
      });
      expect(ended.status).to.equal('cancelled');
      expect((await journalLine(journal, 'abort', taskId, 5_000)).pid).to.equal(runner);
    });
  });
});
