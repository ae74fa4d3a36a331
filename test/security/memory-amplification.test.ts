import { expect } from 'chai';
import v8 from 'node:v8';
import vm from 'node:vm';
import { fromPromise, setup } from 'xstate';
import { defineTool } from '../../server/engine/index.js';
import { postRaw, requestMeta, standardHeaders } from '../helpers/mcp-http.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

/**
 * What one request may make the server hold. A body is at most 1 MiB, but parsed JSON can be far
 * bigger than its text: 1 MiB of `[[[[…]]]]` is about 28 MB of heap (measured on Node 20).
 */
describe('memory held by a request', () => {
  const ROUND_MS = 2_000;
  let server: RunningServer;

  const slowMachine = setup({
    actors: { work: fromPromise(() => new Promise<string>((resolve) => setTimeout(() => resolve('done'), ROUND_MS))) },
  }).createMachine({
    id: 'slow',
    initial: 'working',
    output: ({ event }) => (event as { output?: unknown }).output,
    states: {
      working: { invoke: { src: 'work', onDone: 'done' } },
      done: { type: 'final', output: 'done' },
    },
  });
  const slowTool = defineTool({
    name: 'slow',
    description: 'Works for two seconds, like a real deployment or payment call.',
    inputSchema: { type: 'object', additionalProperties: false },
    machine: slowMachine,
  });

  before(async () => {
    server = await startTestServer({ tools: [slowTool], docs: false });
  });
  after(() => server.close());

  // Found by this suite: junk beside params was parsed and held for the whole round (OOM under
  // ~150 slow calls). Depth and value count are now bounded (-32600 beyond them), and only the
  // envelope is kept once parsed: junk within the bounds is dropped before the round starts.
  it('does not hold data sent beside params for the length of a slow round', async function () {
    this.timeout(30_000);
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    // Within the shape limits (49,000 values, 3 levels), and about 2 MB of heap once parsed.
    const junk = `[${Array.from({ length: 49_000 }, (_, i) => `{"k":${i}}`).join(',')}]`;
    const body =
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{},` +
      `"_meta":${JSON.stringify(requestMeta())}},"junk":${junk}}`;
    const headers = standardHeaders({ method: 'tools/call', params: { name: 'slow' } });
    const calls = 16;

    gc();
    const before = process.memoryUsage().heapUsed;
    const inFlight = Array.from({ length: calls }, () => postRaw(server.url, body, headers));
    // Every body has arrived and been parsed; every round is still working.
    await new Promise((resolve) => setTimeout(resolve, ROUND_MS / 2));
    gc();
    const held = process.memoryUsage().heapUsed - before;
    const responses = await Promise.all(inFlight);

    // Every call ran its slow round to the end: the junk was accepted, just not kept.
    for (const response of responses) expect(response.body.result?.content?.[0]?.text).to.equal('done');
    expect(responses).to.have.length(calls);
    // Kept, the junk would be 16 x about 2 MB; dropped, the rounds hold a few hundred KB.
    expect(held / 1024 / 1024, 'MB of live heap held by the calls in flight').to.be.below(8);
  });
});
