/**
 * A fleet for real: three independent `baton serve` processes sharing BATON_KEYS behind nginx
 * (deploy/nginx.conf, round robin), and hundreds of multi-round flows from concurrent clients.
 * Every round goes wherever nginx sends it; the flow holds together only through its sealed
 * requestState. Then one instance is SIGKILLed in the middle of a run: rounds cut off on it are
 * retried by the client with the same requestState, land on a live instance, and every flow still
 * completes.
 *
 * Effects are counted from the results (each release reports its deploymentId, each database its
 * URL, unique per flow). In the first fleet the instances keep the default in-memory single-use
 * guard, which a dead instance takes with it: an effect round cut off by the kill may have run
 * there before the retry ran it again, and the figures say how many were retried.
 *
 * The second fleet is the documented production set-up: the same three instances share one
 * redis-server (BATON_REDIS_URL), and every deployment the release tool starts is journaled to one
 * file by whichever process runs it (BATON_DEPLOY_JOURNAL). Killed mid-run, it must never deploy
 * anything twice: a confirmation cut off on the dead instance is refused as "already used" on the
 * retry (its effect may have happened), and every other flow completes.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { generateKeyEntry } from '../../server/engine/index.js';
import { FleetClient, type FlowRecord } from '../helpers/fleet-client.js';
import { requestMeta, standardHeaders } from '../helpers/mcp-http.js';
import { startNginx, type RunningNginx } from '../helpers/nginx.js';
import { NGINX, REDIS, requireBinaries } from '../helpers/required-binary.js';
import { startRedis, type RunningRedis } from '../../bench/redis/index.js';
import { BatonFleet, type BatonInstance } from '../helpers/spawn-baton.js';

const FLOWS_PER_RUN = 300;
const CONCURRENCY = 24;

interface FlowSpec {
  tool: string;
  args: Record<string, unknown>;
  replies: Record<string, unknown>;
  /** The effect this flow must report when it completes. */
  effect: string;
}

/** Half releases, half databases; each flow's arguments (and so its effect) are its own. */
function flowSpecs(run: string, count: number): FlowSpec[] {
  const windows = ['now', 'tonight', 'weekend'];
  const regions = ['eu-west', 'us-east'];
  return Array.from({ length: count }, (_, index) => {
    if (index % 2 === 0) {
      const args = { service: `svc-${run}-${index}`, version: '1.0.0' };
      const window = windows[index % 3]!;
      return { tool: 'release', args, replies: { window, confirm: true }, effect: `${args.service}@1.0.0#${window}` };
    }
    const project = `db-${run}-${index}`;
    const region = regions[index % 2]!;
    return {
      tool: 'provision-database',
      args: { project },
      replies: { size: 'small', region, confirm: true },
      effect: `postgres://${project}.${region}.db.internal/small`,
    };
  });
}

function effectOf(record: FlowRecord): string | undefined {
  const content = record.result.structuredContent ?? {};
  return content.deploymentId ?? content.databaseUrl;
}

/** Runs the flows, `concurrency` at a time; `onDone` sees the count of finished flows. */
async function runFlows(
  client: FleetClient,
  specs: FlowSpec[],
  concurrency: number,
  onDone: (finished: number) => void = () => {},
): Promise<FlowRecord[]> {
  const records: FlowRecord[] = new Array(specs.length);
  let next = 0;
  let finished = 0;
  async function lane() {
    while (next < specs.length) {
      const index = next++;
      const spec = specs[index]!;
      records[index] = await client.runFlow(spec.tool, spec.args, spec.replies);
      onDone(++finished);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, lane));
  return records;
}

interface Figures {
  flows: number;
  rounds: number;
  attempts: number;
  roundsPerInstance: Record<string, number>;
  flowsOnSeveralInstances: number;
  flowsOnAllThree: number;
  retries: number;
  retriesByKind: Record<string, number>;
  effects: number;
  distinctEffects: number;
  effectRoundsRetried: number;
  seconds: number;
}

function figuresOf(records: FlowRecord[], instances: BatonInstance[], seconds: number): Figures {
  const names = new Map(instances.map((instance, index) => [instance.instanceId, `instance ${index + 1}`]));
  const roundsPerInstance: Record<string, number> = Object.fromEntries([...names.values()].map((name) => [name, 0]));
  const retriesByKind: Record<string, number> = {};
  let rounds = 0;
  let retries = 0;
  let effectRoundsRetried = 0;
  for (const record of records) {
    for (const round of record.rounds) {
      rounds += 1;
      const name = names.get(round.instance) ?? round.instance;
      roundsPerInstance[name] = (roundsPerInstance[name] ?? 0) + 1;
      retries += round.failures.length;
      for (const kind of round.failures) retriesByKind[kind] = (retriesByKind[kind] ?? 0) + 1;
      if (round.effect && round.failures.length > 0) effectRoundsRetried += 1;
    }
  }
  const visited = records.map((record) => new Set(record.rounds.map((round) => round.instance)).size);
  const effects = records.map(effectOf).filter((effect): effect is string => effect !== undefined);
  return {
    flows: records.length,
    rounds,
    attempts: rounds + retries,
    roundsPerInstance,
    flowsOnSeveralInstances: visited.filter((count) => count > 1).length,
    flowsOnAllThree: visited.filter((count) => count === 3).length,
    retries,
    retriesByKind,
    effects: effects.length,
    distinctEffects: new Set(effects).size,
    effectRoundsRetried,
    seconds: Math.round(seconds * 10) / 10,
  };
}

function report(title: string, figures: Figures, extra: Record<string, unknown> = {}): void {
  const lines = [
    `fleet figures: ${title}`,
    `  flows ${figures.flows} (${CONCURRENCY} concurrent clients), ${figures.seconds} s`,
    `  rounds ${figures.rounds} (requests sent ${figures.attempts})`,
    `  rounds per instance ${JSON.stringify(figures.roundsPerInstance)}`,
    `  flows that visited >1 instance ${figures.flowsOnSeveralInstances}/${figures.flows}, all three ${figures.flowsOnAllThree}`,
    `  retried rounds' failed attempts ${figures.retries} ${JSON.stringify(figures.retriesByKind)}`,
    `  effects reported ${figures.effects} for ${figures.flows} flows (distinct ${figures.distinctEffects}); ` +
      `effect rounds retried after a failure ${figures.effectRoundsRetried}`,
    ...Object.entries(extra).map(([key, value]) => `  ${key} ${JSON.stringify(value)}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

interface KillRun {
  records: FlowRecord[];
  figures: Figures;
  killedAt: number;
  /** Rounds the victim answered more than 500 ms after it was killed (must be none). */
  victimRoundsAfterKill: number;
  retriedRounds: FlowRecord['rounds'];
}

/** Runs `specs` through nginx and SIGKILLs `victim` once a third of the flows have finished. */
async function runWithKill(
  client: FleetClient,
  specs: FlowSpec[],
  instances: BatonInstance[],
  victim: BatonInstance,
): Promise<KillRun> {
  let killedAt = 0;
  const started = Date.now();
  const records = await runFlows(client, specs, CONCURRENCY, (finished) => {
    if (finished === Math.floor(specs.length / 3) && killedAt === 0) {
      killedAt = Date.now();
      process.kill(victim.pid, 'SIGKILL');
    }
  });
  const figures = figuresOf(records, instances, (Date.now() - started) / 1000);
  const rounds = records.flatMap((record) => record.rounds);
  return {
    records,
    figures,
    killedAt,
    victimRoundsAfterKill: rounds.filter(
      (round) => round.instance === victim.instanceId && round.answeredAt > killedAt + 500,
    ).length,
    retriedRounds: rounds.filter((round) => round.failures.length > 0),
  };
}

/** Requests nginx itself moved to the next instance (connection refused): `upstream=a, b`. */
function proxyFailovers(nginx: RunningNginx): number {
  return nginx
    .accessLog()
    .split('\n')
    .filter((line) => line.includes('/mcp') && /upstream=\S+, /.test(line)).length;
}

function expectAllComplete(specs: FlowSpec[], records: FlowRecord[]): void {
  expect(records.length).to.equal(specs.length);
  const wrong = specs.filter((spec, index) => effectOf(records[index]!) !== spec.effect);
  expect(
    wrong.map((spec) => spec.effect),
    'flows without their effect',
  ).to.deep.equal([]);
}

describe('fleet: three Baton instances behind nginx, round robin', function () {
  this.timeout(90_000);

  const fleet = new BatonFleet();
  let instances: BatonInstance[] = [];
  let nginx: RunningNginx | undefined;

  before(async function () {
    requireBinaries(this, NGINX);
    const keys = generateKeyEntry('fleet');
    // The conformance fixtures give a tool that streams progress (test_tool_with_progress).
    instances = await Promise.all([1, 2, 3].map(() => fleet.start({ keys, env: { BATON_CONFORMANCE: '1' } })));
    nginx = await startNginx({ upstreams: instances.map((instance) => instance.port) });
  });

  after(async () => {
    await nginx?.stop();
    await fleet.stopAll();
  });

  it('runs the documented nginx.conf with the three instances as upstreams', () => {
    for (const instance of instances) expect(nginx!.config).to.include(`server 127.0.0.1:${instance.port} `);
    expect(nginx!.config).to.match(/^\s*proxy_buffering off;$/m);
    expect(nginx!.config).to.match(/^\s*listen 127\.0\.0\.1:\d+;$/m);
    expect(new Set(instances.map((instance) => instance.instanceId)).size).to.equal(3);
  });

  it('passes SSE progress events through as they are written (no buffering)', async () => {
    const message = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'test_tool_with_progress', arguments: {}, _meta: requestMeta({}, { progressToken: 'p' }) },
    };
    const chunks: Array<{ at: number; text: string }> = [];
    const contentType = await new Promise<string>((resolve, reject) => {
      const req = request(nginx!.url, { method: 'POST', headers: standardHeaders(message) }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (text: string) => chunks.push({ at: Date.now(), text }));
        res.on('end', () => resolve(String(res.headers['content-type'])));
      });
      req.on('error', reject);
      req.end(JSON.stringify(message));
    });
    expect(contentType).to.match(/^text\/event-stream/);
    const firstProgress = chunks.find((chunk) => chunk.text.includes('notifications/progress'))!;
    const result = chunks.find((chunk) => chunk.text.includes('"result"'))!;
    // The tool reports at 0, 50 and 100 ms and answers at 100 ms: a buffering proxy would hand
    // everything over at once at the end.
    expect(result.at - firstProgress.at).to.be.at.least(60);
  });

  it(`completes ${FLOWS_PER_RUN} flows from ${CONCURRENCY} concurrent clients, rounds spread over all three`, async () => {
    const client = new FleetClient(nginx!.url, { sockets: CONCURRENCY });
    const specs = flowSpecs('steady', FLOWS_PER_RUN);
    const started = Date.now();
    try {
      const records = await runFlows(client, specs, CONCURRENCY);
      const figures = figuresOf(records, instances, (Date.now() - started) / 1000);
      report('steady run', figures);

      expectAllComplete(specs, records);
      expect(figures.flowsOnSeveralInstances / figures.flows, 'flows on more than one instance').to.be.above(0.6);
      for (const [name, rounds] of Object.entries(figures.roundsPerInstance)) {
        expect(rounds / figures.rounds, `share of rounds on ${name}`).to.be.above(0.2);
      }
      expect(figures.distinctEffects).to.equal(FLOWS_PER_RUN);
    } finally {
      client.close();
    }
  });

  it('completes every flow when one instance is SIGKILLed mid-run; cut-off rounds are retried elsewhere', async () => {
    const client = new FleetClient(nginx!.url, { sockets: CONCURRENCY });
    const specs = flowSpecs('kill', FLOWS_PER_RUN);
    const victim = instances[1]!;
    try {
      const run = await runWithKill(client, specs, instances, victim);
      report('one instance SIGKILLed after 1/3 of the flows (in-memory guards)', run.figures, {
        killed: 'instance 2',
        'flows finished before the kill': Math.floor(FLOWS_PER_RUN / 3),
        'rounds that needed a retry': run.retriedRounds.length,
        'requests nginx passed on to the next instance (all runs)': proxyFailovers(nginx!),
        'rounds answered by the killed instance after the kill': run.victimRoundsAfterKill,
      });

      expect(await victim.exited).to.have.property('signal', 'SIGKILL');
      expectAllComplete(specs, run.records);
      expect(run.figures.roundsPerInstance['instance 2'], 'the victim served rounds before the kill').to.be.above(0);
      expect(run.victimRoundsAfterKill).to.equal(0);
      // The kill cut rounds off (requests in flight on the victim), and each ended on a live instance.
      expect(run.retriedRounds, 'rounds cut off by the kill').to.not.be.empty;
      for (const round of run.retriedRounds) expect(round.instance).to.not.equal(victim.instanceId);
      expect(run.figures.distinctEffects).to.equal(FLOWS_PER_RUN);
    } finally {
      client.close();
    }
  });
});

describe('fleet: three Baton instances behind nginx sharing one Redis guard', function () {
  this.timeout(120_000);

  const fleet = new BatonFleet();
  let instances: BatonInstance[] = [];
  let nginx: RunningNginx | undefined;
  let redis: RunningRedis | undefined;
  let journalDir = '';
  let journal = '';

  before(async function () {
    requireBinaries(this, REDIS, NGINX);
    redis = await startRedis();
    journalDir = mkdtempSync(join(tmpdir(), 'baton-fleet-'));
    journal = join(journalDir, 'deployments.log');
    const keys = generateKeyEntry('fleet-redis');
    const env = {
      BATON_REDIS_URL: redis.url,
      BATON_DEPLOY_JOURNAL: journal,
      // A short round budget, so a claim left by the killed instance is declared abandoned after
      // 2 s + 5 s instead of 30 s + 5 s; the retrying client waits that long.
      BATON_TIME_BUDGET_MS: '2000',
    };
    instances = await Promise.all([1, 2, 3].map(() => fleet.start({ keys, env })));
    nginx = await startNginx({ upstreams: instances.map((instance) => instance.port) });
  });

  after(async () => {
    await nginx?.stop();
    await fleet.stopAll();
    await redis?.stop();
    if (journalDir) rmSync(journalDir, { recursive: true, force: true });
  });

  it(`never deploys twice when one instance is SIGKILLed during ${FLOWS_PER_RUN} releases`, async () => {
    // Enough patience to wait out a claim the dead instance left (in_use for about 7 s).
    const client = new FleetClient(nginx!.url, { sockets: CONCURRENCY, maxAttempts: 30 });
    const specs = flowSpecs('redis', FLOWS_PER_RUN * 2).filter((spec) => spec.tool === 'release');
    const victim = instances[2]!;
    try {
      const run = await runWithKill(client, specs, instances, victim);
      const lines = readFileSync(journal, 'utf8').trim().split('\n');
      const deployments = new Map<string, number>();
      for (const line of lines) {
        const id = line.split(' ')[0]!;
        deployments.set(id, (deployments.get(id) ?? 0) + 1);
      }
      const refused = run.records.filter((record) => record.refusal !== undefined);
      const deployedByVictim = lines.filter((line) => line.endsWith(` ${victim.pid}`)).length;
      report('one instance SIGKILLed after 1/3 of the releases (shared Redis guard)', run.figures, {
        killed: 'instance 3',
        'rounds that needed a retry': run.retriedRounds.length,
        'deployments journaled (all instances)': lines.length,
        'deployments started by the killed instance': deployedByVictim,
        'flows refused as already used (confirmation cut off by the kill)': refused.length,
        'deployment ids journaled twice': [...deployments.values()].filter((count) => count > 1).length,
      });

      expect(await victim.exited).to.have.property('signal', 'SIGKILL');
      expect(run.figures.roundsPerInstance['instance 3'], 'the victim served rounds before the kill').to.be.above(0);
      expect(run.victimRoundsAfterKill).to.equal(0);
      // The claim: no effect ever ran twice, on any instance.
      expect(
        [...deployments].filter(([, count]) => count > 1),
        'deployments journaled more than once',
      ).to.deep.equal([]);
      specs.forEach((spec, index) => {
        const record = run.records[index]!;
        if (record.refusal === undefined) {
          // Completed: its deployment is the one in the result, journaled once.
          expect(effectOf(record), spec.effect).to.equal(spec.effect);
          expect(deployments.get(spec.effect), spec.effect).to.equal(1);
          return;
        }
        // Refused only where the kill cut off the confirmation: the last round confirmed, was
        // retried, and is told "already used"; its deployment ran at most once.
        const last = record.rounds.at(-1)!;
        expect(record.refusal, spec.effect).to.equal('request_state_used');
        expect(last.effect && last.failures.length > 0, `${spec.effect}: refused round was a retried confirmation`).to
          .be.true;
        expect(deployments.get(spec.effect) ?? 0, spec.effect).to.be.at.most(1);
      });
      expect(refused.length, 'at most the confirmations in flight on the victim').to.be.at.most(CONCURRENCY);
      // The kill really interrupted work: rounds were retried and the victim had started deployments.
      expect(run.retriedRounds, 'rounds cut off by the kill').to.not.be.empty;
      expect(deployedByVictim, 'deployments started by the victim').to.be.above(0);
    } finally {
      client.close();
    }
  });
});
