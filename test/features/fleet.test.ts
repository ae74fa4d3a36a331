/**
 * A fleet for real: three independent `baton serve` processes sharing BATON_KEYS behind nginx
 * (deploy/nginx.conf, round robin), and hundreds of multi-round flows from concurrent clients.
 * Every round goes wherever nginx sends it; the flow holds together only through its sealed
 * requestState. Then one instance is SIGKILLed in the middle of a run: rounds cut off on it are
 * retried by the client with the same requestState, land on a live instance, and every flow still
 * completes.
 *
 * Effects are counted from the results (each release reports its deploymentId, each database its
 * URL, unique per flow). An effect round (the one answering `confirm: true`) that had to be
 * retried may have run on the killed instance before it died; the instances here use the default
 * in-memory single-use guard, which a dead instance takes with it (a fleet shares a Redis guard:
 * BATON_REDIS_URL, test/features/single-use.test.ts). The figures are printed for the record.
 */
import { request } from 'node:http';
import { expect } from 'chai';
import { generateKeyEntry } from '../../server/engine/index.js';
import { FleetClient, type FlowRecord } from '../helpers/fleet-client.js';
import { requestMeta, standardHeaders } from '../helpers/mcp-http.js';
import { startNginx, type RunningNginx } from '../helpers/nginx.js';
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

  before(async () => {
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
    let killedAt = 0;
    const started = Date.now();
    try {
      const records = await runFlows(client, specs, CONCURRENCY, (finished) => {
        if (finished === Math.floor(FLOWS_PER_RUN / 3) && killedAt === 0) {
          killedAt = Date.now();
          process.kill(victim.pid, 'SIGKILL');
        }
      });
      const figures = figuresOf(records, instances, (Date.now() - started) / 1000);
      const rounds = records.flatMap((record) => record.rounds);
      const victimRoundsAfterKill = rounds.filter(
        (round) => round.instance === victim.instanceId && round.answeredAt > killedAt + 500,
      ).length;
      const retriedRounds = rounds.filter((round) => round.failures.length > 0);
      // Requests nginx itself moved to the next instance (connection refused): `upstream=a, b`.
      const proxyFailovers = nginx!
        .accessLog()
        .split('\n')
        .filter((line) => line.includes('/mcp') && /upstream=\S+, /.test(line)).length;
      report('one instance SIGKILLed after 1/3 of the flows', figures, {
        killed: 'instance 2',
        'flows finished before the kill': Math.floor(FLOWS_PER_RUN / 3),
        'rounds that needed a retry': retriedRounds.length,
        'requests nginx passed on to the next instance (all runs)': proxyFailovers,
        'rounds answered by the killed instance after the kill': victimRoundsAfterKill,
      });

      expect(await victim.exited).to.have.property('signal', 'SIGKILL');
      expectAllComplete(specs, records);
      expect(figures.roundsPerInstance['instance 2'], 'the victim served rounds before the kill').to.be.above(0);
      expect(victimRoundsAfterKill).to.equal(0);
      // A retried round ends on a live instance.
      for (const round of retriedRounds) expect(round.instance).to.not.equal(victim.instanceId);
      expect(figures.distinctEffects).to.equal(FLOWS_PER_RUN);
    } finally {
      client.close();
    }
  });
});
