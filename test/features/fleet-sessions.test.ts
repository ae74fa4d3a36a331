/**
 * 2025-11-25 sessions across a fleet: three `baton serve` processes behind the documented nginx
 * (deploy/nginx.conf), which routes requests that carry an Mcp-Session-Id by it. A tool's question
 * is a request on the tools/call stream held by one instance; the client's answer is a new POST,
 * and it must reach that same instance. Then the instance holding a stream is SIGKILLed while its
 * question waits: the client sees the stream end, the late answer is refused cleanly by the
 * instance the session moved to, the session itself goes on there (its id is sealed), and the
 * effect the question guarded never runs (BATON_DEPLOY_JOURNAL records every deployment).
 */
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { generateKeyEntry } from '../../server/engine/index.js';
import { initializeSession, type LegacySessionClient } from '../helpers/legacy-http.js';
import { startNginx, type RunningNginx } from '../helpers/nginx.js';
import { NGINX, requireBinaries } from '../helpers/required-binary.js';
import { BatonFleet, type BatonInstance } from '../helpers/spawn-baton.js';

const SESSIONS = 12;

/** Runs release in a session, answering each question through nginx; returns the instances seen. */
async function release(client: LegacySessionClient, service: string) {
  const stream = await client.stream('tools/call', { name: 'release', arguments: { service, version: '1.0.0' } });
  const answeredBy: string[] = [];
  for (let message = await stream.next(); message; message = await stream.next()) {
    if (message.method === 'elicitation/create') {
      const field = Object.keys(message.params.requestedSchema.properties)[0];
      const content = field === 'window' ? { window: 'now' } : { confirm: true };
      const answer = await client.answer(message.id, { action: 'accept', content });
      expect(answer.status, JSON.stringify(answer.body)).to.equal(202);
      answeredBy.push(answer.headers.get('baton-instance') ?? '');
      continue;
    }
    return { result: message.result, streamInstance: stream.instance, answeredBy };
  }
  throw new Error('the stream ended without a result');
}

describe('fleet: 2025-11-25 sessions behind nginx, routed by Mcp-Session-Id', function () {
  this.timeout(90_000);

  const fleet = new BatonFleet();
  let instances: BatonInstance[] = [];
  let nginx: RunningNginx | undefined;
  let journalDir = '';
  let journal = '';

  before(async function () {
    requireBinaries(this, NGINX);
    journalDir = mkdtempSync(join(tmpdir(), 'baton-sessions-'));
    journal = join(journalDir, 'deployments.log');
    const keys = generateKeyEntry('sessions');
    instances = await Promise.all([1, 2, 3].map(() => fleet.start({ keys, env: { BATON_DEPLOY_JOURNAL: journal } })));
    nginx = await startNginx({ upstreams: instances.map((instance) => instance.port) });
  });

  after(async () => {
    await nginx?.stop();
    await fleet.stopAll();
    if (journalDir) rmSync(journalDir, { recursive: true, force: true });
  });

  const deployments = () =>
    existsSync(journal) ? readFileSync(journal, 'utf8').trim().split('\n').filter(Boolean) : [];

  it(`answers every question on the instance holding its stream, for ${SESSIONS} concurrent sessions`, async () => {
    const runs = await Promise.all(
      Array.from({ length: SESSIONS }, async (_, index) => {
        const { client } = await initializeSession(nginx!.url);
        return release(client, `sticky-${index}`);
      }),
    );
    for (const run of runs) {
      expect(run.result.structuredContent).to.include({ released: true });
      expect(run.answeredBy).to.have.length(2);
      for (const instance of run.answeredBy) expect(instance).to.equal(run.streamInstance);
    }
    // Sessions spread over the fleet (a random 12 on one instance of three is vanishingly rare).
    expect(new Set(runs.map((run) => run.streamInstance)).size).to.be.at.least(2);
  });

  it('ends the streams of an instance that dies mid-question; the late answer is refused and nothing is deployed', async () => {
    const { client } = await initializeSession(nginx!.url);
    const stream = await client.stream('tools/call', {
      name: 'release',
      arguments: { service: 'victim-flow', version: '1.0.0' },
    });
    const window = await stream.next();
    await client.answer(window.id, { action: 'accept', content: { window: 'now' } });
    const confirm = await stream.next();
    expect(confirm.params.requestedSchema.properties).to.have.key('confirm');

    const victim = instances.find((instance) => instance.instanceId === stream.instance)!;
    expect(victim, 'the stream names its instance').to.not.equal(undefined);
    process.kill(victim.pid, 'SIGKILL');
    expect(await victim.exited).to.have.property('signal', 'SIGKILL');

    // The client sees its stream end without a result: a clean end, not a hang.
    expect(await stream.next()).to.equal(undefined);
    // The answer reaches the instance the session moved to, which has no such question.
    const late = await client.answer(confirm.id, { action: 'accept', content: { confirm: true } });
    expect(late.status).to.equal(400);
    expect(late.body.error.code).to.equal(-32600);
    expect(late.headers.get('baton-instance')).to.not.equal(victim.instanceId);
    // The session lives on (its id is sealed, not stored), and the user can start again there.
    expect((await client.request('ping')).status).to.equal(200);
    expect(deployments().filter((line) => line.startsWith('victim-flow@'))).to.deep.equal([]);
    const again = await release(client, 'victim-flow');
    expect(again.result.structuredContent).to.include({ released: true });
    expect(deployments().filter((line) => line.startsWith('victim-flow@'))).to.have.length(1);
  });
});
