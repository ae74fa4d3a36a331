/**
 * A rolling deploy of `release` version 2, for real: four `baton serve` processes behind nginx
 * (deploy/nginx.conf, round robin), two of the build before the change and two of the new build
 * (version 2, version 1 kept), one key ring; in memory (each instance its own single-use guard)
 * and with Redis (one shared guard). Every round of every flow goes wherever nginx sends it, so
 * flows cross between the builds round by round. Then the old builds stop while flows are in
 * flight, and those flows finish on the new ones.
 *
 * Counted per flow: re-asks (a question asked again after it was answered: the flow restarted),
 * crashes (HTTP 5xx from an instance, or a JSON-RPC error), and effects (every deployment the
 * release starts is journaled by whichever process runs it: BATON_DEPLOY_JOURNAL).
 *
 * What a kept version promises: a flow the old build started finishes on either build, never
 * asked again. What it cannot: the old build (version 1 only) does not know version 2, so a flow
 * a new build started restarts when a round lands on an old one. Those are counted apart. The cure
 * is to start new calls on version 1 while old instances serve: the new build with
 * BATON_START_ON=release=v1, then the same build without it (or a bridge build, version 1 current
 * and version 2 kept: fixtures/rolling-builds.ts). With either, no flow restarts at all
 * (docs/deploy.md, "Rolling deploys").
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { generateKeyEntry } from '../../server/engine/index.js';
import { requestMeta, standardHeaders } from '../helpers/mcp-http.js';
import { startNginx, type RunningNginx } from '../helpers/nginx.js';
import { NGINX, REDIS, requireBinaries } from '../helpers/required-binary.js';
import { startRedis, type RunningRedis } from '../helpers/redis-server.js';
import { BatonFleet, type BatonInstance } from '../helpers/spawn-baton.js';

const BUILDS_MODULE = fileURLToPath(new URL('./fixtures/rolling-builds.ts', import.meta.url));
const FLOWS_ACROSS = 40;
const FLOWS_IN_FLIGHT = 16;
const CONCURRENCY = 8;
const RETRYABLE = new Set([502, 503, 504]);
const WINDOWS = ['now', 'tonight', 'weekend'];
/** The first step of a rolling deploy: the new build starts new calls on the version the old one knows. */
const PINNED = { BATON_START_ON: 'release=v1' };

interface Flow {
  service: string;
  window: string;
  /** The build of each round's instance, in order. */
  builds: string[];
  answered: Set<string>;
  reasks: number;
  crashes: string[];
  /** Attempts the proxy could not deliver (an instance stopping), sent again. */
  retries: number;
  state?: { requestState: string; inputResponses: Record<string, unknown> };
  deploymentId?: string;
  done: boolean;
}

interface Figures {
  flows: number;
  fromOld: number;
  fromNew: number;
  crossed: number;
  reasksFromOld: number;
  reasksFromNew: number;
  crashes: number;
  retries: number;
  completed: number;
  /** Flows in flight when the old builds stopped, and how many of those finished on the new. */
  stopped: number;
  finishedOnNew: number;
  effects: number;
  effectsOnce: number;
}

class RollingClient {
  readonly agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  #id = 1;
  constructor(
    readonly url: string,
    readonly buildOf: (instance: string) => string,
  ) {}

  post(params: Record<string, unknown>): Promise<{ status: number; instance: string; body: any }> {
    const message = { jsonrpc: '2.0', id: this.#id++, method: 'tools/call', params };
    const text = JSON.stringify(message);
    return new Promise((resolve, reject) => {
      const req = request(
        this.url,
        {
          method: 'POST',
          agent: this.agent,
          headers: { ...standardHeaders(message), 'content-length': Buffer.byteLength(text) },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('error', reject);
          res.on('end', () => {
            let parsed: unknown;
            try {
              parsed = JSON.parse(body);
            } catch {
              parsed = { unparsed: body };
            }
            resolve({ status: res.statusCode!, instance: String(res.headers['baton-instance']), body: parsed });
          });
        },
      );
      req.setTimeout(15_000, () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end(text);
    });
  }

  /** One round of `flow`: its first call, or its answers to the last questions. */
  async round(flow: Flow): Promise<void> {
    const params = {
      name: 'release',
      arguments: { service: flow.service, version: '2.0.0' },
      ...(flow.state ?? {}),
      _meta: requestMeta({ elicitation: {} }),
    };
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      let answer;
      try {
        answer = await this.post(params);
      } catch {
        flow.retries += 1;
        await sleep(20 * attempt);
        continue;
      }
      if (RETRYABLE.has(answer.status) && answer.instance === 'undefined') {
        // From nginx, not an instance: the upstream it picked is gone. Sent again, as a client does.
        flow.retries += 1;
        await sleep(20 * attempt);
        continue;
      }
      const build = this.buildOf(answer.instance);
      flow.builds.push(build);
      const error = answer.body?.error;
      if (answer.status >= 500 || answer.status !== 200 || error || !answer.body?.result) {
        flow.crashes.push(`${build}: HTTP ${answer.status} ${JSON.stringify(error ?? answer.body).slice(0, 200)}`);
        flow.done = true;
        return;
      }
      const result = answer.body.result;
      if (result.resultType !== 'input_required') {
        flow.deploymentId = result.structuredContent?.deploymentId;
        flow.done = true;
        return;
      }
      const keys = Object.keys(result.inputRequests);
      if (keys.some((key) => flow.answered.has(key))) flow.reasks += 1;
      const inputResponses: Record<string, unknown> = {};
      for (const key of keys) {
        flow.answered.add(key);
        const content = key === 'window' ? { window: flow.window } : key === 'confirm' ? { confirm: true } : {};
        inputResponses[key] = { action: 'accept', content };
      }
      flow.state = { requestState: result.requestState, inputResponses };
      return;
    }
    flow.crashes.push('10 attempts undelivered');
    flow.done = true;
  }

  async finish(flow: Flow): Promise<void> {
    for (let rounds = 0; !flow.done && rounds < 10; rounds += 1) await this.round(flow);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function inPool<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

function newFlows(run: string, phase: string, count: number): Flow[] {
  return Array.from({ length: count }, (_, index) => ({
    service: `svc-${run}-${phase}-${index}`,
    window: WINDOWS[index % WINDOWS.length]!,
    builds: [],
    answered: new Set<string>(),
    reasks: 0,
    crashes: [],
    retries: 0,
    done: false,
  }));
}

/** Old and new builds side by side behind nginx, then the old ones stopped with flows in flight. */
async function rollingDeploy(options: {
  run: string;
  oldBuild: string;
  newBuild?: string;
  /** Settings of each side's instances (BATON_START_ON). */
  oldEnv?: Record<string, string>;
  newEnv?: Record<string, string>;
  redis?: RunningRedis | undefined;
}): Promise<{
  figures: Figures;
  flows: Flow[];
}> {
  const dir = mkdtempSync(join(tmpdir(), 'baton-rolling-'));
  const journal = join(dir, 'deployments.log');
  const fleet = new BatonFleet();
  let nginx: RunningNginx | undefined;
  const keys = generateKeyEntry(`rolling-${options.run}`);
  const builds = new Map<string, string>();
  try {
    const start = async (side: 'old' | 'new'): Promise<BatonInstance> => {
      const instance = await fleet.start({
        keys,
        args: ['--tools', BUILDS_MODULE],
        env: {
          ROLLING_BUILD: side === 'old' ? options.oldBuild : (options.newBuild ?? 'new'),
          BATON_DEPLOY_JOURNAL: journal,
          ...(options.redis ? { BATON_REDIS_URL: options.redis.url } : {}),
          ...(side === 'old' ? options.oldEnv : options.newEnv),
        },
      });
      builds.set(instance.instanceId, side);
      return instance;
    };
    const old1 = await start('old');
    const new1 = await start('new');
    const old2 = await start('old');
    const new2 = await start('new');
    nginx = await startNginx({ upstreams: [old1.port, new1.port, old2.port, new2.port] });
    const client = new RollingClient(nginx.url, (instance) => builds.get(instance) ?? `unknown ${instance}`);
    try {
      // Both builds serve: every round of every flow wherever nginx sends it.
      const across = newFlows(options.run, 'across', FLOWS_ACROSS);
      await inPool(across, (flow) => client.finish(flow));
      // Flows in flight when the old builds stop: asked their first question, then finished.
      const inFlight = newFlows(options.run, 'stop', FLOWS_IN_FLIGHT);
      await inPool(inFlight, (flow) => client.round(flow));
      await Promise.all([old1.stop(), old2.stop()]);
      await inPool(inFlight, (flow) => client.finish(flow));
      const flows = [...across, ...inFlight];
      const figures = figuresOf(flows, readFileSync(journal, 'utf8'));
      figures.stopped = inFlight.length;
      figures.finishedOnNew = inFlight.filter((flow) => flow.deploymentId && flow.builds.at(-1) === 'new').length;
      return { figures, flows };
    } finally {
      client.agent.destroy();
    }
  } finally {
    await nginx?.stop();
    await fleet.stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

function figuresOf(flows: Flow[], journal: string): Figures {
  const deployed = new Map<string, number>();
  for (const line of journal.split('\n').filter(Boolean)) {
    const id = line.split(' ')[0]!;
    deployed.set(id, (deployed.get(id) ?? 0) + 1);
  }
  const fromOld = flows.filter((flow) => flow.builds[0] === 'old');
  const fromNew = flows.filter((flow) => flow.builds[0] === 'new');
  const completed = flows.filter((flow) => flow.deploymentId !== undefined);
  return {
    flows: flows.length,
    fromOld: fromOld.length,
    fromNew: fromNew.length,
    crossed: flows.filter((flow) => new Set(flow.builds).size > 1).length,
    reasksFromOld: fromOld.reduce((sum, flow) => sum + flow.reasks, 0),
    reasksFromNew: fromNew.reduce((sum, flow) => sum + flow.reasks, 0),
    crashes: flows.reduce((sum, flow) => sum + flow.crashes.length, 0),
    retries: flows.reduce((sum, flow) => sum + flow.retries, 0),
    completed: completed.length,
    stopped: 0,
    finishedOnNew: 0,
    effects: [...deployed.values()].reduce((sum, n) => sum + n, 0),
    effectsOnce: completed.filter((flow) => deployed.get(flow.deploymentId!) === 1).length,
  };
}

function report(label: string, f: Figures): void {
  console.log(
    `      rolling deploy (${label}): ${f.flows} flows (${f.fromOld} started on the old build, ${f.fromNew} on the new; ` +
      `${f.crossed} crossed builds), re-asks ${f.reasksFromOld} of old-started, ${f.reasksFromNew} of new-started, ` +
      `${f.crashes} crashes, ${f.completed} completed (${f.finishedOnNew} of the ${f.stopped} in flight when the old ` +
      `builds stopped, on the new), ${f.effects} effects (${f.effectsOnce} once), ` +
      `${f.retries} undelivered attempts sent again`,
  );
}

/** Every flow completed, none crashed, and every deployment ran once: the effect of each flow. */
function expectSound(f: Figures, flows: Flow[]): void {
  expect(
    flows.flatMap((flow) => flow.crashes),
    'crashes',
  ).to.deep.equal([]);
  expect(f.completed, 'flows completed').to.equal(f.flows);
  expect(f.effects, 'deployments journaled').to.equal(f.flows);
  expect(f.effectsOnce, 'each deployment once').to.equal(f.flows);
  expect(f.finishedOnNew, 'flows in flight when the old builds stopped, finished on the new').to.equal(f.stopped);
  // Round robin over old, new, old, new: flows really cross between the builds.
  expect(f.fromOld).to.be.greaterThan(0);
  expect(f.crossed).to.be.greaterThan(f.flows / 2);
}

describe('a rolling deploy of release version 2 behind nginx', function () {
  this.timeout(300_000);
  let redis: RunningRedis | undefined;

  before(async function () {
    requireBinaries(this, NGINX, REDIS);
    redis = await startRedis();
  });
  after(async () => {
    await redis?.stop();
  });

  for (const mode of ['memory', 'redis'] as const) {
    it(`${mode}: no flow the old build started is asked again, none crashes, each deploys once`, async () => {
      const { figures, flows } = await rollingDeploy({
        run: `${mode}-old`,
        oldBuild: 'old',
        ...(mode === 'redis' ? { redis } : {}),
      });
      report(`${mode}, old build = version 1 only`, figures);
      expect(figures.reasksFromOld, 'flows the old build started, asked again').to.equal(0);
      expectSound(figures, flows);
    });

    it(`${mode}: with the new build starting on version 1 (BATON_START_ON), no flow is asked again`, async () => {
      const { figures, flows } = await rollingDeploy({
        run: `${mode}-pinned`,
        oldBuild: 'old',
        newEnv: PINNED,
        ...(mode === 'redis' ? { redis } : {}),
      });
      report(`${mode}, old build = version 1 only, new build with BATON_START_ON=release=v1`, figures);
      expect(figures.reasksFromOld + figures.reasksFromNew, 'flows asked again').to.equal(0);
      expectSound(figures, flows);
    });
  }

  it('memory: then the setting goes, build by build, and still no flow is asked again', async () => {
    const { figures, flows } = await rollingDeploy({ run: 'memory-unpinned', oldBuild: 'new', oldEnv: PINNED });
    report('memory, old = new build with BATON_START_ON=release=v1, new = the same build without it', figures);
    expect(figures.reasksFromOld + figures.reasksFromNew, 'flows asked again').to.equal(0);
    expectSound(figures, flows);
  });

  it('memory: a bridge build (version 1 current, version 2 kept) does what the setting does', async () => {
    const { figures, flows } = await rollingDeploy({ run: 'memory-bridge', oldBuild: 'bridge' });
    report('memory, old build = bridge (version 1 current, version 2 known)', figures);
    expect(figures.reasksFromOld + figures.reasksFromNew, 'flows asked again').to.equal(0);
    expectSound(figures, flows);
  });
});
