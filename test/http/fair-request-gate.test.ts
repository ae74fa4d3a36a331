/**
 * Each caller's share of the request gate, over real HTTP. Before it, 256 concurrent calls to a
 * slow tool from one address held the whole gate, and 181 of 183 calls from another address got
 * 503. Now a caller (a principal, or a client address when anonymous) holds at most a quarter of
 * the gate: its calls past that get 429 (-31000, `concurrent_requests`), and others are served.
 * The slow tool waits on a promise the test releases: slow for as long as needed, with no sleep.
 */
import { expect } from 'chai';
import { fromPromise, setup } from 'xstate';
import { defineTool } from '../../server/engine/index.js';
import { staticBearerTokens } from '../../server/http/index.js';
import { postFrom } from '../helpers/from-address.js';
import { requestMeta, type RawResponse } from '../helpers/mcp-http.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

/** A tool whose work runs until `release()`: `running()` counts the calls that reached it. */
function heldTool() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let running = 0;
  const tool = defineTool({
    name: 'slow',
    description: 'Works until the test releases it.',
    inputSchema: { type: 'object', properties: {} },
    machine: setup({
      actors: {
        wait: fromPromise(async ({ signal }) => {
          running += 1;
          await Promise.race([released, new Promise((resolve) => signal.addEventListener('abort', resolve))]);
          return 'done';
        }),
      },
    }).createMachine({
      initial: 'working',
      states: { working: { invoke: { src: 'wait', onDone: 'done' } }, done: { type: 'final' } },
    }),
    safeActors: ['wait'],
  });
  return { tool, release, running: () => running };
}

let nextId = 1;
const message = (method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: nextId++,
  method,
  params: { ...params, _meta: requestMeta() },
});
const callSlow = (from: string, url: string, headers: Record<string, string> = {}) =>
  postFrom(from, url, message('tools/call', { name: 'slow', arguments: {} }), headers);

/** Waits (polling, no fixed pause) until `done()`; the test's own timeout bounds it. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Every request of `flood` either runs in the tool or has been answered (a refusal). */
function settled(flood: Promise<RawResponse>[], running: () => number): () => boolean {
  let answered = 0;
  for (const call of flood) void call.then(() => (answered += 1));
  return () => running() + answered >= flood.length;
}

function expectShareRefusal(response: RawResponse, limit: number): void {
  expect(response.status, response.text).to.equal(429);
  expect(response.headers.get('retry-after')).to.equal('1');
  expect(response.body.error.code).to.equal(-31000);
  expect(response.body.error.data).to.deep.equal({ reason: 'concurrent_requests', limit });
}

describe("a caller's share of the request gate", function () {
  this.timeout(60_000);

  describe('anonymous callers, counted by address (the default gate: 256, a quarter each)', () => {
    let server: RunningServer;
    const held = heldTool();
    before(async () => {
      server = await startTestServer({ tools: [held.tool], docs: false });
    });
    after(async () => {
      held.release();
      await server.close();
    });

    it('keeps an honest address served beside 256 concurrent slow calls from another', async () => {
      const flood = Array.from({ length: 256 }, () => callSlow('127.0.0.2', server.url));
      await until(settled(flood, held.running));

      let served = 0;
      const HONEST = 100;
      for (let batch = 0; batch < HONEST / 10; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 10 }, () => postFrom('127.0.0.3', server.url, message('tools/list'))),
        );
        served += answers.filter((answer) => answer.status !== 503).length;
      }
      expect(served / HONEST).to.be.at.least(0.95);

      // The flood's calls past its share were refused as its own (429), not the instance's.
      expect(held.running()).to.equal(64);
      held.release();
      const answers = await Promise.all(flood);
      const refused = answers.filter((answer) => answer.status !== 200);
      expect(refused).to.have.length(256 - 64);
      for (const answer of refused) expectShareRefusal(answer, 64);
    });
  });

  describe('authenticated callers, counted by principal', () => {
    let server: RunningServer;
    const held = heldTool();
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    before(async () => {
      server = await startTestServer({
        tools: [held.tool],
        docs: false,
        maxConcurrentRequests: 8,
        authenticate: staticBearerTokens(
          new Map([
            ['mallory-token-0123456789', 'mallory'],
            ['alice-token-0123456789ab', 'alice'],
          ]),
        ),
      });
    });
    after(async () => {
      held.release();
      await server.close();
    });

    it('serves one principal while another, from the same address, fills its share', async () => {
      const flood = Array.from({ length: 8 }, () =>
        callSlow('127.0.0.1', server.url, bearer('mallory-token-0123456789')),
      );
      await until(settled(flood, held.running));
      const honest = await postFrom('127.0.0.1', server.url, message('tools/list'), bearer('alice-token-0123456789ab'));
      expect(honest.status, honest.text).to.equal(200);
      expect(held.running()).to.equal(2);
      held.release();
      const refused = (await Promise.all(flood)).filter((answer) => answer.status !== 200);
      expect(refused).to.have.length(6);
      for (const answer of refused) expectShareRefusal(answer, 2);
    });
  });
});
