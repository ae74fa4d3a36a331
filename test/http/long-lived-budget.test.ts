/**
 * Long-lived requests have their own budget, apart from the request gate: listen streams and
 * 2025-11-25 calls waiting for an answer, counted per caller (client address when anonymous) and
 * per instance. A caller over its share gets 429, an instance over its total 503, both -31000 with
 * Retry-After, and neither ever makes another caller's ordinary request wait. Open listen streams
 * send keep-alives and end gracefully after their maximum lifetime.
 */
import { expect } from 'chai';
import { postFrom } from '../helpers/from-address.js';
import { initializeSession, type LegacyStream } from '../helpers/legacy-http.js';
import { holdListen, type HeldListen } from '../helpers/listen-streams.js';
import { callTool, requestMeta } from '../helpers/mcp-http.js';
import { isStatus, resultOf, TASK_CLIENT, waitForTask } from '../helpers/tasks.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

const TOOLS_LIST = { jsonrpc: '2.0', id: 'honest', method: 'tools/list', params: { _meta: requestMeta() } };

/** A ship-release task parked at its approval question: it stays open for as long as we like. */
async function parkedTask(url: string): Promise<string> {
  const created = resultOf(
    await callTool(url, 'ship-release', { service: 'api', version: '1' }, {}, { capabilities: TASK_CLIENT }),
  );
  await waitForTask(url, created.taskId, isStatus('input_required'));
  return created.taskId;
}

describe('the long-lived budget (listen streams, waiting 2025-11-25 calls)', function () {
  this.timeout(30_000);
  let server: RunningServer;
  let taskId: string;
  const held: HeldListen[] = [];
  const streams: LegacyStream[] = [];

  before(async () => {
    server = await startTestServer({
      // A gate smaller than any one caller's long-lived share: before long-lived requests had a
      // budget of their own, a few of them from one address made everyone else's requests 503.
      maxConcurrentRequests: 2,
      longLived: { listen_streams: { perClient: 3, perInstance: 5 }, waiting_calls: { perClient: 3, perInstance: 5 } },
    });
    taskId = await parkedTask(server.url);
  });
  afterEach(() => {
    for (const listen of held.splice(0)) listen.close();
    for (const stream of streams.splice(0)) stream.abort();
  });
  after(async () => {
    await server.baton.close();
    await server.close();
  });

  const listenFrom = async (localAddress: string) => {
    const listen = await holdListen(server.url, { taskIds: [taskId] }, { localAddress });
    held.push(listen);
    return listen;
  };

  /**
   * A stream accepted from `localAddress`, trying again while refused: the server learns that an
   * earlier stream closed asynchronously, and the positive signal is a stream accepted again.
   */
  const acceptedFrom = async (localAddress: string) => {
    const deadline = Date.now() + 10_000;
    let listen = await listenFrom(localAddress);
    while (listen.status !== 200 && Date.now() < deadline) listen = await listenFrom(localAddress);
    return listen;
  };

  it('keeps listen streams out of the request gate: another caller is served while they stay open', async () => {
    for (let i = 0; i < 3; i++) {
      const listen = await listenFrom('127.0.0.2');
      expect(listen.status).to.equal(200);
      expect(listen.first.params.notifications.taskIds).to.deep.equal([taskId]);
    }
    const honest = await postFrom('127.0.0.3', server.url, TOOLS_LIST);
    expect(honest.status, honest.text).to.equal(200);
  });

  it("refuses a caller's listen stream past its share with 429 and -31000, others still get theirs", async () => {
    for (let i = 0; i < 3; i++) expect((await acceptedFrom('127.0.0.2')).status).to.equal(200);
    const refused = await listenFrom('127.0.0.2');
    expect(refused.status).to.equal(429);
    expect(refused.headers['retry-after']).to.equal('1');
    expect(refused.first.error.code).to.equal(-31000);
    expect(refused.first.error.data).to.deep.equal({ reason: 'listen_streams', limit: 3 });
    // Past three quarters of the total (3 of 5), a caller may hold one stream: the rest is kept
    // for callers holding none (engine/fair-share.ts).
    expect((await acceptedFrom('127.0.0.4')).status).to.equal(200);
    const late = await listenFrom('127.0.0.4');
    expect(late.status).to.equal(429);
    expect(late.first.error.data).to.deep.equal({ reason: 'listen_streams', limit: 1 });
    expect((await acceptedFrom('127.0.0.7')).status).to.equal(200);
    // Five open: the instance's total. The next caller gets 503, the instance's refusal.
    const busy = await listenFrom('127.0.0.5');
    expect(busy.status).to.equal(503);
    expect(busy.first.error.code).to.equal(-31000);
    expect(busy.first.error.data.reason).to.equal('listen_streams');
  });

  it('gives a slot back when its stream closes', async () => {
    for (let i = 0; i < 3; i++) expect((await acceptedFrom('127.0.0.6')).status).to.equal(200);
    held.pop()!.close();
    expect((await acceptedFrom('127.0.0.6')).status).to.equal(200);
  });

  it('keeps 2025-11-25 calls waiting for an answer out of the request gate, within their own share', async () => {
    const { client } = await initializeSession(server.url);
    for (let i = 0; i < 3; i++) {
      const stream = await client.stream('tools/call', {
        name: 'release',
        arguments: { service: 'api', version: '1' },
      });
      streams.push(stream);
      const question = await stream.next();
      expect(question.method, JSON.stringify(question)).to.equal('elicitation/create');
    }
    const honest = await postFrom('127.0.0.3', server.url, TOOLS_LIST);
    expect(honest.status, honest.text).to.equal(200);
    const refused = await client.stream('tools/call', { name: 'release', arguments: { service: 'api', version: '2' } });
    streams.push(refused);
    const answer = await refused.next();
    expect(answer.error.code, JSON.stringify(answer)).to.equal(-31000);
    expect(answer.error.data).to.deep.equal({ reason: 'waiting_calls', limit: 3 });
  });
});

describe('an open listen stream: keep-alives and a maximum lifetime', function () {
  this.timeout(30_000);
  let server: RunningServer;

  before(async () => {
    server = await startTestServer({ listen: { keepAliveMs: 50, maxLifetimeMs: 600 } });
  });
  after(async () => {
    await server.baton.close();
    await server.close();
  });

  it('sends SSE keep-alive comments while idle, then ends gracefully with the listen result', async () => {
    const taskId = await parkedTask(server.url);
    const listen = await holdListen(server.url, { taskIds: [taskId] });
    const received = await listen.ended;
    expect(received.filter((item) => item === ': keep-alive').length).to.be.greaterThan(0);
    const last = received.at(-1);
    expect(last.id, JSON.stringify(received)).to.equal(
      listen.first.params._meta['io.modelcontextprotocol/subscriptionId'],
    );
    expect(last.result.resultType).to.equal('complete');
    // The task itself is untouched, and a reconnect gets its current state again.
    const again = await holdListen(server.url, { taskIds: [taskId] });
    const status = again.received.find((m) => typeof m !== 'string' && m.method === 'notifications/tasks');
    again.close();
    expect(status?.params.status ?? (await waitForTask(server.url, taskId, () => true)).status).to.equal(
      'input_required',
    );
  });
});
