/**
 * The long-lived budget shared fairly, over real HTTP. Before, callers at their share could take
 * all of the instance's total (32 addresses x 16 listen streams filled the 512; the same with
 * parked 2025-11-25 calls), and an honest newcomer got 503. Here the same ratio at a small scale
 * (4 each, 16 in all): four callers fill what they may, and a fifth still gets its stream or call.
 * The default figures are checked in test/protocol/long-lived-budget.test.ts.
 */
import { expect } from 'chai';
import { staticBearerTokens } from '../../server/http/index.js';
import { LEGACY_VERSION, sessionClient, type LegacyStream } from '../helpers/legacy-http.js';
import { holdListen, type HeldListen } from '../helpers/listen-streams.js';
import { callTool, postRaw } from '../helpers/mcp-http.js';
import { isStatus, resultOf, TASK_CLIENT, waitForTask } from '../helpers/tasks.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

const SHARE = { perClient: 4, perInstance: 16 };

describe('long-lived requests shared fairly between callers', function () {
  this.timeout(60_000);

  describe('listen streams, counted by address', () => {
    let server: RunningServer;
    let taskId: string;
    const held: HeldListen[] = [];
    before(async () => {
      server = await startTestServer({ longLived: { listen_streams: SHARE } });
      const created = resultOf(
        await callTool(server.url, 'ship-release', { service: 'api', version: '1' }, {}, { capabilities: TASK_CLIENT }),
      );
      taskId = created.taskId;
      await waitForTask(server.url, taskId, isStatus('input_required'));
    });
    after(async () => {
      for (const listen of held) listen.close();
      await server.baton.close();
      await server.close();
    });

    it('leaves a fifth address room after four addresses each opened all the streams they could', async () => {
      for (let address = 2; address < 6; address++) {
        for (let i = 0; i < SHARE.perClient + 2; i++) {
          held.push(await holdListen(server.url, { taskIds: [taskId] }, { localAddress: `127.0.0.${address}` }));
        }
      }
      const refused = held.filter((listen) => listen.status !== 200);
      expect(refused.length).to.be.greaterThan(0);
      // Refused as the caller's own (429): never the instance's 503 while others are admitted.
      for (const listen of refused) expect(listen.status).to.equal(429);
      const newcomer = await holdListen(server.url, { taskIds: [taskId] }, { localAddress: '127.0.0.9' });
      held.push(newcomer);
      expect(newcomer.status, JSON.stringify(newcomer.first)).to.equal(200);
      expect(newcomer.first.params.notifications.taskIds).to.deep.equal([taskId]);
    });
  });

  describe('2025-11-25 calls parked on a question, counted by principal', () => {
    let server: RunningServer;
    const streams: LegacyStream[] = [];
    const token = (name: string) => `${name}-token-0123456789abcdef`;
    const names = ['p1', 'p2', 'p3', 'p4', 'newcomer'];
    before(async () => {
      server = await startTestServer({
        longLived: { waiting_calls: SHARE },
        authenticate: staticBearerTokens(new Map(names.map((name) => [token(name), name]))),
        docs: false,
      });
    });
    after(async () => {
      for (const stream of streams) stream.abort();
      await server.baton.close();
      await server.close();
    });

    /** A 2025-11-25 session for `name`, its requests carrying that principal's token. */
    async function sessionOf(name: string) {
      const authorization = `Bearer ${token(name)}`;
      const init = await postRaw(
        server.url,
        JSON.stringify({
          jsonrpc: '2.0',
          id: `init-${name}`,
          method: 'initialize',
          params: {
            protocolVersion: LEGACY_VERSION,
            capabilities: { elicitation: {} },
            clientInfo: { name: 'fair-share-test', version: '1.0.0' },
          },
        }),
        { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization },
      );
      expect(init.status, init.text).to.equal(200);
      const client = sessionClient(server.url, init.headers.get('mcp-session-id') ?? '');
      Object.assign(client.headers, { authorization });
      return client;
    }

    /** Starts a `release` call and reads its first message: a question, or the refusal. */
    async function park(name: string, client: Awaited<ReturnType<typeof sessionOf>>, n: number) {
      const stream = await client.stream('tools/call', {
        name: 'release',
        arguments: { service: `${name}-${n}`, version: '1' },
      });
      streams.push(stream);
      return stream.next();
    }

    it('leaves a newcomer room after four principals each parked all the calls they could', async () => {
      const refusals = [];
      for (const name of names.slice(0, 4)) {
        const client = await sessionOf(name);
        for (let n = 0; n < SHARE.perClient + 2; n++) {
          const first = await park(name, client, n);
          if (first.method !== 'elicitation/create') refusals.push(first);
        }
      }
      expect(refusals.length).to.be.greaterThan(0);
      for (const refusal of refusals) {
        expect(refusal.error.code, JSON.stringify(refusal)).to.equal(-31000);
        expect(refusal.error.data.reason).to.equal('waiting_calls');
      }
      const first = await park('newcomer', await sessionOf('newcomer'), 0);
      expect(first.method, JSON.stringify(first)).to.equal('elicitation/create');
    });
  });
});
