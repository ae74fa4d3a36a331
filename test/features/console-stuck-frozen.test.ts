/**
 * The stuck view from outside (issue 42): two `baton serve` processes share Redis, their console
 * on for an operator token. A task's step starts on one instance, which is then frozen (SIGSTOP)
 * mid-step, once the step shows as running (a first step writes its start after a second:
 * task-claims.ts); its BullMQ lock is long, so nobody takes the job over and the task stays
 * `running` with nothing written. Past the view's one-minute threshold, the other instance's
 * `/console/stuck` lists the task as `running_unchanged`. Woken (SIGCONT), the step finishes and
 * the task leaves the view.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { generateKeyEntry } from '../../server/engine/index.js';
import { SLOW_THEN_ASK } from '../fixtures/long-step-tools.js';
import { callTool } from '../helpers/mcp-http.js';
import { REDIS, requireBinaries } from '../helpers/required-binary.js';
import { startRedis, type RunningRedis } from '../../bench/redis/index.js';
import { BatonFleet, type BatonInstance } from '../helpers/spawn-baton.js';
import { resultOf, TASK_CLIENT, waitForTask } from '../helpers/tasks.js';

const OPS = 'ops-token-0123456789abcdef';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the stuck view lists a task whose instance was frozen mid-step', function () {
  this.timeout(240_000);
  let redis: RunningRedis | undefined;
  const fleet = new BatonFleet();
  let frozen: number | undefined;
  let dir: string;

  before(async function () {
    requireBinaries(this, REDIS);
    dir = mkdtempSync(join(tmpdir(), 'baton-stuck-'));
    redis = await startRedis();
  });
  after(async () => {
    if (frozen !== undefined) process.kill(frozen, 'SIGCONT');
    await fleet.stopAll();
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('as running_unchanged past the threshold, and not once the step goes on', async () => {
    const journal = join(dir, 'journal');
    const keys = generateKeyEntry('stuck');
    const env = {
      BATON_REDIS_URL: redis!.url,
      BATON_TEST_JOURNAL: journal,
      // Long enough that no instance takes the frozen step over while the test looks.
      BATON_TASK_LOCK_MS: '600000',
      BATON_CONSOLE: '1',
      BATON_TOKENS: `ops:${OPS}`,
      BATON_OPERATORS: 'ops',
    };
    const instances: BatonInstance[] = [];
    for (let i = 0; i < 2; i += 1) {
      instances.push(await fleet.start({ keys, env, args: ['--tools', 'test/fixtures/long-step-tools.ts'] }));
    }
    const auth = { authorization: `Bearer ${OPS}` };
    const taskId = resultOf(
      await callTool(instances[0]!.url, SLOW_THEN_ASK, {}, {}, { capabilities: TASK_CLIENT, headers: auth }),
    ).taskId as string;
    // Frozen as soon as its step has started, wherever that is.
    const lines = () => (existsSync(journal) ? readFileSync(journal, 'utf8').split('\n') : []);
    let pid: number | undefined;
    for (let tries = 0; pid === undefined && tries < 400; tries += 1) {
      const line = lines().find((entry) => entry.startsWith(`start ${taskId} `));
      pid = line ? Number(line.split(' ')[2]) : undefined;
      if (pid === undefined) await sleep(50);
    }
    expect(pid, 'the step started').to.be.a('number');
    // Its 3 s of work go on after its start is written, which the console's task page shows.
    const phase = async () => {
      const page = await (await fetch(`${instances[0]!.origin}/console/tasks/${taskId}`, { headers: auth })).text();
      return /<th>Phase<\/th><td>(\w+)<\/td>/.exec(page)?.[1];
    };
    let shown: string | undefined;
    for (let tries = 0; shown !== 'running' && tries < 100; tries += 1) {
      shown = await phase();
      if (shown !== 'running') await sleep(20);
    }
    expect(shown, 'the step shows as running').to.equal('running');
    process.kill(pid!, 'SIGSTOP');
    frozen = pid;
    const awake = instances.find((instance) => instance.pid !== pid)!;

    // The view's smallest threshold is a minute: wait past it, with a little room.
    await sleep(65_000);
    const page = await fetch(`${awake.origin}/console/stuck?running=1&unchanged=60`, { headers: auth });
    expect(page.status).to.equal(200);
    const html = await page.text();
    const row = new RegExp(`data-task="${taskId}"[\\s\\S]*?data-reason="running_unchanged"`);
    expect(html).to.match(row);

    process.kill(pid!, 'SIGCONT');
    frozen = undefined;
    await waitForTask(awake.url, taskId, (task) => task.status === 'input_required', {
      timeoutMs: 30_000,
      headers: auth,
    });
    const after = await (await fetch(`${awake.origin}/console/stuck?running=1&unchanged=60`, { headers: auth })).text();
    expect(after).to.not.include(`data-task="${taskId}"`);
  });
});
