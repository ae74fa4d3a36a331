/**
 * Baton on a Redis Cluster (issue 43): a three-master cluster on loopback, two `baton serve`
 * processes on BATON_REDIS_CLUSTER. Tasks (ship-release: approve, bake on a durable timer, promote)
 * and single-use flows (release's confirmation) run while every slot of the master holding the
 * task keys is resharded to another master. Every task completes, each effect runs once, and each
 * confirmation presented again to the other instance gets its first run's answer: no multi-key
 * script fails with CROSSSLOT (Baton's keys carry hash tags in a cluster) and nothing is lost in
 * the move.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { generateKeyEntry } from '../../server/engine/index.js';
import { REDIS, requireBinaries } from '../helpers/required-binary.js';
import { startCluster, type RunningCluster } from '../../bench/redis/index.js';
import { FleetWork, journaled, patiently } from '../helpers/redis-fleet-work.js';
import { BatonFleet } from '../helpers/spawn-baton.js';

const TASKS = 6;
const FLOWS = 6;

describe('Baton on a three-master Redis Cluster, resharded mid-run', function () {
  this.timeout(240_000);
  let cluster: RunningCluster | undefined;
  const fleet = new BatonFleet();
  let dir: string;

  before(async function () {
    requireBinaries(this, REDIS);
    dir = mkdtempSync(join(tmpdir(), 'baton-cluster-run-'));
    cluster = await startCluster();
  });
  after(async () => {
    await fleet.stopAll();
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('completes every task and runs each effect once while slots move', async () => {
    const journal = join(dir, 'effects.log');
    const keys = generateKeyEntry('cluster');
    const env = {
      BATON_REDIS_CLUSTER: cluster!.nodes,
      BATON_DEPLOY_JOURNAL: journal,
      BATON_TASK_LOCK_MS: '2000',
      BATON_TASK_POLL_MS: '200',
    };
    const work = new FleetWork([await fleet.start({ keys, env }), await fleet.start({ keys, env })]);
    const taskIds = await work.approvedTasks(TASKS);
    const confirms = await work.pausedConfirmations(FLOWS);
    for (const [i, flow] of confirms.slice(0, FLOWS / 2).entries()) await work.present(i, flow);
    // Every slot of the master holding the task records moves while the rest of the work runs.
    const started = Date.now();
    const [moved] = await Promise.all([
      cluster!.reshardAwayFrom('baton:{task}:x'),
      Promise.all(confirms.slice(FLOWS / 2).map((flow, i) => patiently(`confirm ${i}`, () => work.present(i, flow)))),
    ]);
    const reshardMs = Date.now() - started;
    const results = [];
    for (const [i, flow] of confirms.entries()) {
      results.push({
        first: await patiently(`confirm flow ${i}`, () => work.present(i, flow)),
        replay: await patiently(`replay flow ${i}`, () => work.present(i + 1, flow)),
      });
    }
    const finished = await work.ended(taskIds);
    const { deployments, promotions, twice } = journaled(journal);
    const completed = finished.filter((task) => task.status === 'completed').length;
    const replayedDifferently = results.filter(
      ({ first, replay }) => JSON.stringify(first.structuredContent) !== JSON.stringify(replay.structuredContent),
    ).length;
    console.log(
      `      cluster: ${moved} slots resharded in ${reshardMs} ms while work ran; ${completed} of ${TASKS} tasks completed; ` +
        `${promotions.length} promotions and ${deployments.length} deployments journaled, ${twice} of them twice; ` +
        `single-use replays accepted: ${replayedDifferently + twice}`,
    );
    expect(moved).to.be.greaterThan(0);
    expect(completed, 'tasks completed').to.equal(TASKS);
    expect(promotions, 'promotions journaled').to.have.length(TASKS);
    expect(deployments, 'deployments journaled').to.have.length(FLOWS);
    expect(twice, 'effects run twice').to.equal(0);
    expect(replayedDifferently, 'replays that ran again').to.equal(0);
  });
});
