import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { RedisReplayGuard } from '../../server/engine/index.js';
import { staticBearerTokens } from '../../server/http/index.js';
import { checkSingleUseGuard } from '../../server/settings/security-options.js';
import { countingRelease } from '../helpers/counting-release.js';
import { callToolFrom } from '../helpers/from-address.js';
import { callTool } from '../helpers/mcp-http.js';
import { REDIS, requireBinaries } from '../helpers/required-binary.js';
import { startRedis, type RunningRedis } from '../../bench/redis/index.js';
import { freePort } from '../helpers/spawn-baton.js';
import { startTestServer, testKeyRing, type RunningServer } from '../helpers/test-server.js';

const window = { window: { action: 'accept', content: { window: 'now' } } };
const confirmYes = { confirm: { action: 'accept', content: { confirm: true } } };
const confirmNo = { confirm: { action: 'accept', content: { confirm: false } } };
const ALICE = 'alice-token-0123456789';
const MALLORY = 'mallory-token-0123456789';

type Call = (args: Record<string, unknown>, round?: Record<string, unknown>) => Promise<any>;

function bearer(url: string, token: string): Call {
  return async (args, round = {}) =>
    (await callTool(url, 'release', args, round, { headers: { authorization: `Bearer ${token}` } })).body;
}

function from(url: string, address: string): Call {
  return async (args, round = {}) => (await callToolFrom(address, url, 'release', args, round)).body;
}

/** Two rounds: the single-use confirmation state of a fresh release. */
async function confirmation(call: Call, service: string): Promise<{ args: Record<string, unknown>; state: string }> {
  const args = { service, version: '1.0.0' };
  const r1 = await call(args);
  const r2 = await call(args, { requestState: r1.result.requestState, inputResponses: window });
  expect(Object.keys(r2.result.inputRequests)).to.deep.equal(['confirm']);
  return { args, state: r2.result.requestState };
}

describe('single-use guard: a quota per caller', () => {
  const QUOTA = 3;
  let server: RunningServer;
  const { tool, counter } = countingRelease();

  afterEach(() => server?.close());

  it('refuses only the flooding principal once it holds its quota; another principal still deploys', async () => {
    const tokens = new Map([
      [ALICE, 'alice'],
      [MALLORY, 'mallory'],
    ]);
    server = await startTestServer({ tools: [tool], authenticate: staticBearerTokens(tokens), singleUseQuota: QUOTA });
    const mallory = bearer(server.url, MALLORY);
    for (let i = 0; i < QUOTA; i++) {
      const { args, state } = await confirmation(mallory, `flood-${i}`);
      const done = await mallory(args, { requestState: state, inputResponses: confirmNo });
      expect(done.result, JSON.stringify(done)).to.exist;
    }
    const { args, state } = await confirmation(mallory, 'flood-over');
    const refused = await mallory(args, { requestState: state, inputResponses: confirmNo });
    expect(refused.error.code).to.equal(-32602);
    expect(refused.error.data).to.deep.equal({ reason: 'single_use_quota', quota: QUOTA });

    const alice = bearer(server.url, ALICE);
    const mine = await confirmation(alice, 'billing');
    const deployed = await alice(mine.args, { requestState: mine.state, inputResponses: confirmYes });
    expect(deployed.result.structuredContent.released).to.equal(true);
  });

  it('counts anonymous callers by client address', async () => {
    server = await startTestServer({ tools: [tool], singleUseQuota: QUOTA });
    const flooder = from(server.url, '127.0.0.1');
    for (let i = 0; i < QUOTA; i++) {
      const { args, state } = await confirmation(flooder, `flood-${i}`);
      await flooder(args, { requestState: state, inputResponses: confirmNo });
    }
    const over = await confirmation(flooder, 'flood-over');
    expect(
      (await flooder(over.args, { requestState: over.state, inputResponses: confirmNo })).error.data.reason,
    ).to.equal('single_use_quota');
    const honest = from(server.url, '127.0.0.2');
    const mine = await confirmation(honest, 'billing');
    const deployed = await honest(mine.args, { requestState: mine.state, inputResponses: confirmYes });
    expect(deployed.result.structuredContent.released).to.equal(true);
  });

  it('does not claim for a resend that answers nothing: it gets the same question and the same state back', async () => {
    server = await startTestServer({ tools: [tool], singleUseQuota: 1 });
    counter.deployments = 0;
    const caller = from(server.url, '127.0.0.1');
    const { args, state } = await confirmation(caller, 'resend');
    for (let i = 0; i < 5; i++) {
      const again = await caller(args, { requestState: state });
      expect(again.result.requestState).to.equal(state);
      expect(Object.keys(again.result.inputRequests)).to.deep.equal(['confirm']);
    }
    // Nothing was claimed, so the quota of one is still free for the real confirmation.
    const deployed = await caller(args, { requestState: state, inputResponses: confirmYes });
    expect(deployed.result.structuredContent.released).to.equal(true);
    // Once used, a resend without answers is told so, like any other resend.
    const after = await caller(args, { requestState: state });
    expect(after.result).to.deep.equal(deployed.result);
    expect(counter.deployments).to.equal(1);
  });
});

describe('single-use guard on Redis that loses its data', function () {
  let redis: RunningRedis | undefined;
  let server: RunningServer | undefined;
  let guard: RedisReplayGuard | undefined;

  before(function () {
    requireBinaries(this, REDIS);
  });
  afterEach(async () => {
    await server?.close();
    await guard?.close();
    await redis?.stop();
    server = guard = redis = undefined;
  });

  it('refuses a used state as "already used" after Redis restarts without persistence, and never deploys twice', async function () {
    this.timeout(20_000);
    redis = await startRedis();
    guard = new RedisReplayGuard({ url: redis.url });
    const { tool, counter } = countingRelease();
    server = await startTestServer({ tools: [tool], replayGuard: guard, keyRing: testKeyRing('epoch') });
    const caller = from(server.url, '127.0.0.1');
    const { args, state } = await confirmation(caller, 'billing');
    const first = await caller(args, { requestState: state, inputResponses: confirmYes });
    expect(first.result.structuredContent.released).to.equal(true);

    const port = redis.port;
    await redis.stop();
    redis = await startRedis({ port });
    const replay = await caller(args, { requestState: state, inputResponses: confirmYes });
    expect(replay.error?.data, JSON.stringify(replay)).to.deep.equal({ reason: 'request_state_used' });
    expect(counter.deployments).to.equal(1);

    // States issued after the new epoch (from its next second on) run normally.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const fresh = await confirmation(caller, 'billing-2');
    const deployed = await caller(fresh.args, { requestState: fresh.state, inputResponses: confirmYes });
    expect(deployed.result.structuredContent.released).to.equal(true);
    expect(counter.deployments).to.equal(2);
  });

  it('stops start-up when maxmemory-policy is not noeviction, naming the fix', async () => {
    redis = await startRedis({ args: ['--maxmemory-policy', 'allkeys-lru'] });
    guard = new RedisReplayGuard({ url: redis.url });
    const logged: string[] = [];
    const logger = { info() {}, warn: (event: string) => void logged.push(event), error() {} };
    let refused: unknown;
    await checkSingleUseGuard({ replayGuard: guard }, logger).catch((error: unknown) => (refused = error));
    expect((refused as Error)?.name).to.equal('ConfigurationError');
    expect(String(refused)).to.include('noeviction');
  });

  it('makes `baton serve` exit 78 before listening on such a Redis', async function () {
    this.timeout(30_000);
    redis = await startRedis({ args: ['--maxmemory-policy', 'volatile-lru'] });
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/cli.ts', 'serve'], {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
      env: { ...process.env, PORT: String(await freePort()), HOST: '127.0.0.1', BATON_REDIS_URL: redis.url },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(timer);
    expect(code, stderr).to.equal(78);
    expect(stderr).to.include('maxmemory-policy noeviction');
  });

  it('warns, naming appendonly, when Redis keeps nothing across a restart', async () => {
    redis = await startRedis();
    guard = new RedisReplayGuard({ url: redis.url });
    const report = await guard.check();
    expect(report.problems).to.deep.equal([]);
    expect(report.warnings.join(' ')).to.include('appendonly yes');
  });
});
