/**
 * A Redis failover with work in flight (issue 43): two `baton serve` processes share a Sentinel
 * set (BATON_REDIS_SENTINELS: a master, a replica, three sentinels on loopback). Tasks
 * (ship-release: approve, bake on a durable timer, promote) and single-use flows (release's
 * confirmation) are in flight when the master is SIGKILLed. After the sentinels promote the
 * replica, the instances reconnect by themselves: every task completes, each promotion and each
 * deployment runs once (journaled by whichever process runs it), and no sealed single-use state is
 * accepted twice, though every one is presented again to both instances. A claim reaches the
 * replica before its round runs (WAIT), so a claim acknowledged just before the master died is not
 * lost with it.
 */
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { generateKeyEntry, isTerminalStatus } from '../../server/engine/index.js';
import { callTool } from '../helpers/mcp-http.js';
import { REDIS, requireBinaries } from '../helpers/required-binary.js';
import { SENTINEL_NAME, startSentinelSet, type RunningSentinelSet } from '../helpers/redis-sentinel.js';
import { BatonFleet, type BatonInstance } from '../helpers/spawn-baton.js';
import { TASK_CLIENT, taskRpc } from '../helpers/tasks.js';

const TASKS = 6;
const FLOWS = 6;
const approve = { approve: { action: 'accept', content: { approve: true, approver: 'failover' } } };
const confirm = { confirm: { action: 'accept', content: { confirm: true } } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retries what a failover makes fail for a moment (a refused guard, a Redis error), as a client does. */
async function patiently<T>(
  what: string,
  attempt: () => Promise<T | undefined>,
  timeoutMs = 60_000,
  final: (error: unknown) => boolean = () => false,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await attempt();
      if (value !== undefined) return value;
    } catch (error) {
      if (final(error)) throw error;
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`${what}: gave up (${String(last)})`);
    await sleep(200);
  }
}

describe('a Redis Sentinel failover with tasks and single-use flows in flight', function () {
  this.timeout(240_000);
  let set: RunningSentinelSet | undefined;
  const fleet = new BatonFleet();
  let dir: string;

  before(async function () {
    requireBinaries(this, REDIS);
    dir = mkdtempSync(join(tmpdir(), 'baton-failover-'));
    set = await startSentinelSet();
  });
  after(async () => {
    await fleet.stopAll();
    await set?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('completes every task, runs each effect once, and accepts no single-use state twice', async () => {
    const journal = join(dir, 'effects.log');
    const keys = generateKeyEntry('failover');
    const env = {
      BATON_REDIS_SENTINELS: set!.sentinels,
      BATON_REDIS_SENTINEL_NAME: SENTINEL_NAME,
      BATON_DEPLOY_JOURNAL: journal,
      BATON_TASK_LOCK_MS: '2000',
      BATON_TASK_POLL_MS: '200',
    };
    const a = await fleet.start({ keys, env });
    const b = await fleet.start({ keys, env });
    const instances: BatonInstance[] = [a, b];
    const on = (index: number) => instances[index % 2]!;

    // Tasks: started and approved across both instances; they then bake on a durable timer.
    const taskIds: string[] = [];
    for (let i = 0; i < TASKS; i += 1) {
      const created = await callTool(
        on(i).url,
        'ship-release',
        { service: `svc-${i}`, version: '1', bakeSeconds: 2 },
        {},
        { capabilities: TASK_CLIENT },
      );
      taskIds.push(created.body.result.taskId);
    }
    for (const [i, taskId] of taskIds.entries()) {
      await patiently(`approve ${taskId}`, async () => {
        const task = (await taskRpc(on(i + 1).url, 'tasks/get', { taskId })).body?.result;
        if (task?.status !== 'input_required') return undefined;
        const answered = await taskRpc(on(i + 1).url, 'tasks/update', { taskId, inputResponses: approve });
        return answered.status === 200 && !answered.body.error ? true : undefined;
      });
    }

    // Single-use flows: each paused at its confirmation.
    const confirms: Array<{ args: Record<string, unknown>; requestState: string }> = [];
    for (let i = 0; i < FLOWS; i += 1) {
      const args = { service: `flow-${i}`, version: '1.0.0' };
      const first = (await callTool(on(i).url, 'release', args)).body.result;
      const next = (
        await callTool(on(i + 1).url, 'release', args, {
          requestState: first.requestState,
          inputResponses: { window: { action: 'accept', content: { window: 'now' } } },
        })
      ).body.result;
      confirms.push({ args, requestState: next.requestState });
    }
    const present = async (index: number, flow: (typeof confirms)[number]) => {
      const answer = await callTool(on(index).url, 'release', flow.args, {
        requestState: flow.requestState,
        inputResponses: confirm,
      });
      if (answer.status === 200 && answer.body.result) return answer.body.result;
      throw new Error(`HTTP ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    };

    // Half the confirmations run, and the master dies while the rest are presented.
    for (const [i, flow] of confirms.slice(0, FLOWS / 2).entries()) await present(i, flow);
    const failover = set!.killMaster();
    const during = await Promise.allSettled(confirms.slice(FLOWS / 2).map((flow, i) => present(i, flow)));
    const failoverMs = await failover;

    // After the promotion: every confirmation presented again, to both instances, until each answers.
    // A confirmation presented while the master died may have run with its outcome lost; it then
    // counts as used (fail closed: refused, never run again). Those are counted, not retried.
    const killedAt = Date.now();
    const results: Array<{ first: any; replay: any } | 'used'> = [];
    const used = (error: unknown) => String(error).includes('request_state_used');
    for (const [i, flow] of confirms.entries()) {
      try {
        const first = await patiently(`confirm flow ${i}`, () => present(i, flow), 60_000, used);
        const replay = await patiently(`replay flow ${i}`, () => present(i + 1, flow), 60_000, used);
        results.push({ first, replay });
      } catch (error) {
        if (!used(error) || i < FLOWS / 2) throw error;
        results.push('used');
      }
    }
    // Every task completes, read from either instance.
    const finished = [];
    let firstStepAfterMs: number | undefined;
    for (const [i, taskId] of taskIds.entries()) {
      finished.push(
        await patiently(`task ${taskId}`, async () => {
          const task = (await taskRpc(on(i).url, 'tasks/get', { taskId })).body?.result;
          if (!task || !isTerminalStatus(task.status)) return undefined;
          firstStepAfterMs ??= Date.now() - killedAt;
          return task;
        }),
      );
    }

    const lines = existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').filter(Boolean) : [];
    const count = new Map<string, number>();
    for (const line of lines) {
      const id = line.startsWith('promote ') ? line.split(' ')[1]! : line.split(' ')[0]!;
      count.set(id, (count.get(id) ?? 0) + 1);
    }
    const deployments = [...count.keys()].filter((id) => id.startsWith('flow-'));
    const promotions = [...count.keys()].filter((id) => !id.startsWith('flow-'));
    const twice = [...count.values()].filter((n) => n > 1).length;
    const completed = finished.filter((task) => task.status === 'completed').length;
    const refusedAsUsed = results.filter((result) => result === 'used').length;
    const replayedDifferently = results.filter(
      (result) =>
        result !== 'used' &&
        JSON.stringify(result.replay.structuredContent) !== JSON.stringify(result.first.structuredContent),
    ).length;
    console.log(
      `      failover: master SIGKILLed, a replica promoted in ${failoverMs} ms; ${completed} of ${TASKS} tasks completed ` +
        `(the first seen ended ${firstStepAfterMs} ms after the promotion); ${promotions.length} promotions and ` +
        `${deployments.length} deployments journaled, ${twice} of them twice; of ${FLOWS} confirmations ` +
        `(${FLOWS / 2} presented while the master died, ${during.filter((r) => r.status === 'fulfilled').length} answered then), ` +
        `${refusedAsUsed} refused as used (outcome lost with the master, not run again); ` +
        `single-use replays accepted: ${replayedDifferently + twice}`,
    );
    expect(completed, 'tasks completed').to.equal(TASKS);
    expect(promotions, 'promotions journaled').to.have.length(TASKS);
    expect(twice, 'effects run twice').to.equal(0);
    expect(replayedDifferently, 'replays that ran again').to.equal(0);
    expect(deployments.length, 'deployments journaled').to.be.within(FLOWS - refusedAsUsed, FLOWS);
    for (const [i, result] of results.entries()) {
      if (result === 'used') continue;
      expect(result.first.structuredContent.deploymentId, `flow ${i}`).to.equal(`flow-${i}@1.0.0#now`);
    }
  });
});
