/**
 * The stdio transport in-process: `serveStdio` on a pair of PassThrough streams, with the same
 * dispatcher the CLI builds, plus a slow tool defined here to watch concurrency, cancellation and
 * the drain at end of input.
 */
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import { assign, fromPromise, setup } from 'xstate';
import { testToolWithProgress } from '../../machines/conformance/test-tool-with-progress.js';
import { releaseTool } from '../../machines/examples/release.js';
import { createMcpService } from '../../server/create-mcp-service.js';
import { defineTool, silentLogger } from '../../server/engine/index.js';
import {
  principalFromEnvironment,
  serveStdio,
  type StdioConnection,
  type StdioOptions,
} from '../../server/stdio/index.js';
import { cancelled, JsonLines, request, sendLine } from '../helpers/json-lines.js';
import { testKeyRing } from '../helpers/test-server.js';

/** Counts what the slow tool's invoked work saw. */
const probe = { started: 0, aborted: 0 };

const sleep = fromPromise<void, { ms: number }>(async ({ input, signal }) => {
  probe.started += 1;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, input.ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      probe.aborted += 1;
      reject(new Error('aborted'));
    });
  });
});

const slowTool = defineTool({
  name: 'slow',
  description: 'Sleeps for `ms` milliseconds, honouring cancellation.',
  inputSchema: { type: 'object', properties: { ms: { type: 'integer', minimum: 0 } }, required: ['ms'] },
  machine: setup({
    types: {} as { context: { ms: number; slept: boolean }; input: { ms: number } },
    actors: { sleep },
  }).createMachine({
    id: 'slow',
    initial: 'sleeping',
    context: ({ input }) => ({ ms: input.ms, slept: false }),
    output: ({ event }) => event.output,
    states: {
      sleeping: {
        invoke: {
          src: 'sleep',
          input: ({ context }) => ({ ms: context.ms }),
          onDone: { target: 'done', actions: assign({ slept: true }) },
        },
      },
      done: { type: 'final', output: ({ context }) => `slept ${context.ms} ms` },
    },
  }),
});

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('serveStdio', () => {
  const connections: StdioConnection[] = [];

  function start(options: Partial<StdioOptions> = {}, keyRing = testKeyRing()) {
    const { dispatcher } = createMcpService({
      tools: [releaseTool, testToolWithProgress, slowTool],
      keyRing,
      logger: silentLogger,
    });
    const input = new PassThrough();
    const output = new PassThrough();
    const lines = new JsonLines(output);
    const connection = serveStdio({ dispatcher, input, output, ...options });
    connections.push(connection);
    return { input, output, lines, connection, send: (message: unknown) => sendLine(input, message) };
  }

  beforeEach(() => {
    probe.started = 0;
    probe.aborted = 0;
  });

  afterEach(async () => {
    await Promise.all(connections.splice(0).map((connection) => connection.close()));
  });

  describe('framing', () => {
    it('answers each request with one JSON line and writes nothing that is not a message', async () => {
      const { lines, send } = start();
      send(request(1, 'server/discover'));
      send(request('two', 'tools/list'));
      const discover = await lines.response(1);
      const list = await lines.response('two');

      expect(discover.result.supportedVersions).to.include('2026-07-28');
      expect(list.result.tools.map((tool: { name: string }) => tool.name)).to.include('release');
      expect(lines.garbage).to.deep.equal([]);
    });

    it('reads a message split across chunks and one ending in CRLF', async () => {
      const { input, lines } = start();
      const text = JSON.stringify(request(1, 'tools/list'));
      input.write(text.slice(0, 10));
      input.write(`${text.slice(10)}\r\n`);
      expect((await lines.response(1)).result.tools).to.be.an('array');
    });

    it('answers a line that is not JSON with -32700 and no id, then reads on', async () => {
      const { lines, send } = start();
      send('{"jsonrpc":"2.0","id":7,"method":');
      send(request(8, 'tools/list'));
      const parseError = await lines.waitFor((message) => message.error?.code === -32700);
      expect(parseError).to.not.have.property('id');
      expect((await lines.response(8)).result).to.have.property('tools');
    });

    it('answers an over-long line with -32600 and no id, then reads on', async () => {
      const { lines, send } = start({ maxLineBytes: 512 });
      send(request(1, 'tools/list', { padding: 'x'.repeat(1000) }));
      send(request(2, 'tools/list'));
      const tooLong = await lines.waitFor((message) => message.error?.code === -32600);
      expect(tooLong).to.not.have.property('id');
      expect((await lines.response(2)).result).to.have.property('tools');
      expect(lines.withId(1)).to.deep.equal([]);
    });

    it('applies the _meta rules without any header check', async () => {
      const { lines, send } = start();
      send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
      send(request(2, 'tools/list', {}, { meta: { 'io.modelcontextprotocol/protocolVersion': '1999-01-01' } }));
      expect((await lines.response(1)).error.code).to.equal(-32602);
      expect((await lines.response(2)).error.code).to.equal(-32022);
    });
  });

  describe('concurrency', () => {
    it('answers a fast request while a slow one is still running', async () => {
      const { lines, send } = start();
      send(request('slow', 'tools/call', { name: 'slow', arguments: { ms: 300 } }));
      send(request('fast', 'tools/list'));
      await lines.response('fast');
      expect(lines.withId('slow')).to.deep.equal([]);
      const slow = await lines.response('slow');
      expect(slow.result.content[0].text).to.equal('slept 300 ms');
      const order = lines.messages.map((message) => message.id);
      expect(order.indexOf('fast')).to.be.lessThan(order.indexOf('slow'));
    });

    it('refuses a second request under an id still in flight, without answering under that id', async () => {
      const { lines, send } = start();
      send(request(1, 'tools/call', { name: 'slow', arguments: { ms: 200 } }));
      send(request(1, 'tools/list'));
      const refused = await lines.waitFor((message) => message.error?.code === -32600);
      expect(refused).to.not.have.property('id');
      const answered = await lines.response(1);
      expect(answered.result.content[0].text).to.equal('slept 200 ms');
      // A later request answered is the positive signal that nothing more is coming for id 1.
      send(request('marker', 'tools/list'));
      await lines.response('marker');
      expect(lines.withId(1)).to.have.length(1);
    });
  });

  describe('cancellation', () => {
    it('notifications/cancelled aborts the request it names, and nothing is written for it', async () => {
      const { lines, send, input, connection } = start();
      send(request('doomed', 'tools/call', { name: 'slow', arguments: { ms: 10_000 } }));
      while (probe.started === 0) await delay(5);
      send(cancelled('doomed'));
      // Later traffic is still answered, so the transport kept running.
      send(request('after', 'tools/list'));
      await lines.response('after');
      // The abort reached the work: a positive signal, rather than a pause that a slow run outlasts.
      while (probe.aborted === 0) await delay(5);
      input.end();
      await connection.closed;

      expect(probe.aborted).to.equal(1);
      expect(lines.withId('doomed')).to.deep.equal([]);
      expect(lines.messages.filter((message) => message.params?.requestId === 'doomed')).to.deep.equal([]);
    });

    it('ignores cancellations of unknown ids and malformed ones', async () => {
      const { lines, send } = start();
      send(request(1, 'tools/call', { name: 'slow', arguments: { ms: 100 } }));
      send(cancelled(999));
      send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: null } });
      send({ jsonrpc: '2.0', method: 'notifications/cancelled' });
      expect((await lines.response(1)).result.content[0].text).to.equal('slept 100 ms');
      expect(probe.aborted).to.equal(0);
      expect(lines.messages).to.have.length(1);
    });
  });

  describe('subscriptions/listen', () => {
    it('writes the acknowledgment tagged with the subscription id, then the response that ends it', async () => {
      const { lines, send } = start();
      send(request('sub-1', 'subscriptions/listen', { notifications: { promptsListChanged: true } }));
      const response = await lines.response('sub-1');
      const ack = lines.messages.find((message) => message.method === 'notifications/subscriptions/acknowledged')!;
      expect(ack.params).to.deep.equal({
        _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' },
        notifications: {},
      });
      expect(lines.messages.indexOf(ack)).to.be.below(lines.messages.indexOf(response));
      expect(response.result._meta['io.modelcontextprotocol/subscriptionId']).to.equal('sub-1');
    });
  });

  describe('progress', () => {
    it('writes notifications/progress inline, before the response, when the request has a progressToken', async () => {
      const { lines, send } = start();
      send(
        request(1, 'tools/call', { name: 'test_tool_with_progress', arguments: {} }, { meta: { progressToken: 'p1' } }),
      );
      await lines.response(1);
      const progress = lines.messages.filter((message) => message.method === 'notifications/progress');
      expect(progress.map((message) => message.params.progress)).to.deep.equal([0, 50, 100]);
      expect(progress.every((message) => message.params.progressToken === 'p1')).to.equal(true);
      expect(lines.messages.at(-1)!.id).to.equal(1);
    });

    it('writes no progress without a progressToken', async () => {
      const { lines, send } = start();
      send(request(1, 'tools/call', { name: 'test_tool_with_progress', arguments: {} }));
      await lines.response(1);
      expect(lines.messages).to.have.length(1);
    });
  });

  describe('end of input', () => {
    it('answers the requests in flight, then closes', async () => {
      const { lines, send, input, connection } = start();
      send(request(1, 'tools/call', { name: 'slow', arguments: { ms: 150 } }));
      input.end();
      await connection.closed;
      expect(lines.withId(1)).to.have.length(1);
      expect(lines.withId(1)[0]!.result.content[0].text).to.equal('slept 150 ms');
    });

    it('reads a last message that has no newline', async () => {
      const { lines, input, connection } = start();
      input.end(JSON.stringify(request(1, 'tools/list')));
      await connection.closed;
      expect(lines.withId(1)).to.have.length(1);
    });

    it('aborts work still running when the drain time runs out, and writes nothing for it', async () => {
      const { lines, send, input, connection } = start({ drainTimeoutMs: 50 });
      send(request(1, 'tools/call', { name: 'slow', arguments: { ms: 10_000 } }));
      while (probe.started === 0) await delay(5);
      const ended = Date.now();
      input.end();
      await connection.closed;
      expect(Date.now() - ended).to.be.lessThan(2000);
      expect(probe.aborted).to.equal(1);
      expect(lines.withId(1)).to.deep.equal([]);
    });
  });

  describe('principalFromEnvironment', () => {
    it('is "stdio" and not authenticated when BATON_PRINCIPAL is unset or blank', () => {
      expect(principalFromEnvironment({})).to.deep.equal({ id: 'stdio', authenticated: false });
      expect(principalFromEnvironment({ BATON_PRINCIPAL: '  ' })).to.deep.equal({ id: 'stdio', authenticated: false });
    });

    it('takes the id from BATON_PRINCIPAL', () => {
      expect(principalFromEnvironment({ BATON_PRINCIPAL: 'alice@example.com' })).to.deep.equal({
        id: 'alice@example.com',
        authenticated: true,
      });
    });

    it('binds a sealed state to the principal that received it', async () => {
      const keyRing = testKeyRing();
      const alice = start({ principal: principalFromEnvironment({ BATON_PRINCIPAL: 'alice' }) }, keyRing);
      const bob = start({ principal: principalFromEnvironment({ BATON_PRINCIPAL: 'bob' }) }, keyRing);
      const args = { service: 'billing', version: '2.4.0' };
      alice.send(request(1, 'tools/call', { name: 'release', arguments: args }));
      const first = await alice.lines.response(1);
      expect(first.result.resultType).to.equal('input_required');

      const retry = {
        name: 'release',
        arguments: args,
        requestState: first.result.requestState,
        inputResponses: { window: { action: 'accept', content: { window: 'now' } } },
      };
      bob.send(request(2, 'tools/call', retry));
      expect((await bob.lines.response(2)).error.code).to.equal(-32602);
      alice.send(request(3, 'tools/call', retry));
      expect((await alice.lines.response(3)).result.resultType).to.equal('input_required');
    });
  });
});
