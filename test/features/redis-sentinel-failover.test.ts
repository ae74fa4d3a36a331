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
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { generateKeyEntry } from '../../server/engine/index.js';
import { REDIS, requireBinaries } from '../helpers/required-binary.js';
import { SENTINEL_NAME, startSentinelSet, type RunningSentinelSet } from '../../bench/redis/index.js';
import { FleetWork, journaled, patiently } from '../helpers/redis-fleet-work.js';
import { BatonFleet } from '../helpers/spawn-baton.js';

const TASKS = 6;
const FLOWS = 6;

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
    const work = new FleetWork([await fleet.start({ keys, env }), await fleet.start({ keys, env })]);
    const taskIds = await work.approvedTasks(TASKS);
    const confirms = await work.pausedConfirmations(FLOWS);
    const present = (index: number, flow: (typeof confirms)[number]) => work.present(index, flow);

    // Half the confirmations run, and the master dies while the rest are presented.
    for (const [i, flow] of confirms.slice(0, FLOWS / 2).entries()) await present(i, flow);
    const killedAt = Date.now();
    const failover = set!.killMaster();
    const during = await Promise.allSettled(confirms.slice(FLOWS / 2).map((flow, i) => present(i, flow)));
    const { promotionMs: failoverMs } = await failover;

    // After the promotion: every confirmation presented again, to both instances, until each answers.
    // A confirmation presented while the master died may have run with its outcome lost; it then
    // counts as used (fail closed: refused, never run again). Those are counted, not retried.
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
    const finished = await work.ended(taskIds);
    // The first task step completed after the master died: the earliest task that ended after it.
    const endedAfter = finished.map((task) => Date.parse(task.lastUpdatedAt)).filter((at) => at > killedAt);
    const firstStepAfterMs = endedAfter.length > 0 ? Math.min(...endedAfter) - killedAt : undefined;
    const { deployments, promotions, twice } = journaled(journal);
    const completed = finished.filter((task) => task.status === 'completed').length;
    const refusedAsUsed = results.filter((result) => result === 'used').length;
    const replayedDifferently = results.filter(
      (result) =>
        result !== 'used' &&
        JSON.stringify(result.replay.structuredContent) !== JSON.stringify(result.first.structuredContent),
    ).length;
    console.log(
      `      failover: master SIGKILLed, a replica promoted in ${failoverMs} ms; ${completed} of ${TASKS} tasks completed ` +
        `(the first to end after the master died, ${firstStepAfterMs} ms after its death); ${promotions.length} promotions and ` +
        `${deployments.length} deployments journaled, ${twice} of them twice; of ${FLOWS} confirmations ` +
        `(${FLOWS / 2} presented while the master died, ${during.filter((r) => r.status === 'fulfilled').length} answered then), ` +
        `${refusedAsUsed} refused as used (claimed as the master died, never run: fail closed); ` +
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
