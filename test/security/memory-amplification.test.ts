import { expect } from 'chai';
import v8 from 'node:v8';
import vm from 'node:vm';
import { fromPromise, setup } from 'xstate';
import { defineTool } from '../../server/engine/index.js';
import { deepArrayText } from '../helpers/hostile-inputs.js';
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
    server = await startTestServer({ tools: [slowTool] });
  });
  after(() => server.close());

  // Found by this suite: nested junk beside params was parsed and held for the whole round (OOM
  // under ~150 slow calls). The raw text's depth and value count are now bounded before
  // JSON.parse, and only the envelope is kept once parsed.
  it('does not hold deeply nested data sent beside params for the length of a slow round', async function () {
    this.timeout(30_000);
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const junk = deepArrayText(500_000);
    const body =
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{},` +
      `"_meta":${JSON.stringify(requestMeta())}},"junk":${junk}}`;
    const headers = standardHeaders({ method: 'tools/call', params: { name: 'slow' } });
    const calls = 8;

    gc();
    const before = process.memoryUsage().heapUsed;
    const inFlight = Array.from({ length: calls }, () => postRaw(server.url, body, headers));
    // Every body has arrived and been parsed; every round is still working.
    await new Promise((resolve) => setTimeout(resolve, ROUND_MS / 2));
    gc();
    const held = process.memoryUsage().heapUsed - before;
    await Promise.all(inFlight);

    // 8 x 28 MB would be held today; a request should hold about what its text weighs.
    expect(held / 1024 / 1024, 'MB of live heap held by the calls in flight').to.be.below(40);
  });
});
