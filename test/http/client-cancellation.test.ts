/**
 * A client that goes away cancels its request (spec, streamable-http "Cancellation"): the work
 * the round was waiting on is stopped (its abort signal fires) and nothing is answered. The
 * endpoint makes the request's AbortSignal only when a round waits, so this checks it is made
 * and aborted when one does.
 */
import { expect } from 'chai';
import { fromPromise, setup } from 'xstate';
import { defineTool } from '../../server/engine/index.js';
import { requestMeta, standardHeaders } from '../helpers/mcp-http.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

describe('a client that goes away mid-round', () => {
  let server: RunningServer;
  let started: () => void;
  const workStarted = new Promise<void>((resolve) => (started = resolve));
  let stopped: () => void;
  const workStopped = new Promise<void>((resolve) => (stopped = resolve));
  let finished = false;

  const slow = defineTool({
    name: 'slow',
    description: 'Waits for a long time, then answers.',
    inputSchema: { type: 'object', properties: {} },
    machine: setup({
      actors: {
        wait: fromPromise(
          ({ signal }) =>
            new Promise<string>((resolve) => {
              started();
              const timer = setTimeout(() => {
                finished = true;
                resolve('done');
              }, 10_000);
              signal.addEventListener('abort', () => {
                clearTimeout(timer);
                stopped();
              });
            }),
        ),
      },
    }).createMachine({
      initial: 'working',
      states: {
        working: { invoke: { src: 'wait', onDone: 'done' } },
        done: { type: 'final' },
      },
    }),
    safeActors: ['wait'],
  });

  before(async () => {
    server = await startTestServer({ tools: [slow] });
  });
  after(() => server.close());

  it('stops the work the round waits on when the client closes the connection', async () => {
    const message = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'slow', arguments: {}, _meta: requestMeta() },
    };
    const controller = new AbortController();
    const response = fetch(server.url, {
      method: 'POST',
      headers: standardHeaders(message),
      body: JSON.stringify(message),
      signal: controller.signal,
    }).catch((error: Error) => error);
    await workStarted;
    controller.abort();
    const outcome = await Promise.race([workStopped.then(() => 'stopped'), delay(5000).then(() => 'still running')]);
    expect(outcome).to.equal('stopped');
    expect(finished).to.equal(false);
    expect(await response).to.be.instanceOf(Error);
  });
});

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
