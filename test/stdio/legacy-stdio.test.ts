/**
 * The 2025-11-25 wire over stdio, in-process: `initialize` makes the connection a session; a
 * tool's questions go out as server-to-client requests and the client's responses come back on
 * the input; a 2026-07-28 request on the same connection is still served statelessly.
 */
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import { createMcpService } from '../../server/create-mcp-service.js';
import { silentLogger } from '../../server/engine/index.js';
import { serveStdio, type StdioConnection } from '../../server/stdio/index.js';
import { countingRelease } from '../helpers/counting-release.js';
import { JsonLines, request, sendLine } from '../helpers/json-lines.js';
import { testKeyRing } from '../helpers/test-server.js';

const ARGS = { service: 'billing', version: '2.4.0' };

describe('serveStdio: 2025-11-25 sessions', () => {
  const connections: StdioConnection[] = [];
  afterEach(async () => {
    await Promise.all(connections.splice(0).map((connection) => connection.close()));
  });

  function start(capabilities: Record<string, unknown> = { elicitation: {} }) {
    const release = countingRelease();
    const { dispatcher, legacy } = createMcpService({
      tools: [release.tool],
      keyRing: testKeyRing(),
      logger: silentLogger,
    });
    const input = new PassThrough();
    const output = new PassThrough();
    const lines = new JsonLines(output);
    const connection = serveStdio({ dispatcher, input, output, legacy });
    connections.push(connection);
    const send = (message: unknown) => sendLine(input, message);
    send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'host', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return { lines, send, connection, counter: release.counter };
  }

  it('initializes, asks on stdout, takes the answers from stdin, and finishes the call', async () => {
    const { lines, send, counter } = start();
    expect((await lines.response('init')).result.protocolVersion).to.equal('2025-11-25');
    send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'release', arguments: ARGS } });
    const window = await lines.waitFor((m) => m.method === 'elicitation/create');
    send({ jsonrpc: '2.0', id: window.id, result: { action: 'accept', content: { window: 'now' } } });
    const confirm = await lines.waitFor((m) => m.method === 'elicitation/create' && m.id !== window.id);
    send({ jsonrpc: '2.0', id: confirm.id, result: { action: 'accept', content: { confirm: true } } });
    const done = await lines.response(1);
    expect(done.result.structuredContent).to.include({ released: true, window: 'now' });
    expect(done.result).not.to.have.property('resultType');
    expect(counter.deployments).to.equal(1);
    expect(lines.garbage).to.deep.equal([]);
  });

  it('still serves a 2026-07-28 request (with _meta) statelessly on the same connection', async () => {
    const { lines, send } = start();
    await lines.response('init');
    send(request(2, 'tools/call', { name: 'release', arguments: ARGS }));
    const round = await lines.response(2);
    expect(round.result.resultType).to.equal('input_required');
    expect(round.result.requestState).to.be.a('string');
  });

  it('stops a call waiting for an answer when the transport closes: the effect never runs', async () => {
    const { lines, send, connection, counter } = start();
    await lines.response('init');
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'release', arguments: ARGS } });
    const window = await lines.waitFor((m) => m.method === 'elicitation/create');
    send({ jsonrpc: '2.0', id: window.id, result: { action: 'accept', content: { window: 'now' } } });
    await lines.waitFor((m) => m.method === 'elicitation/create' && m.id !== window.id);
    await connection.close();
    expect(lines.withId(3)).to.deep.equal([]);
    expect(counter.deployments).to.equal(0);
  });

  it('answers -32021 naming the capability to a session that declared no elicitation', async () => {
    const { lines, send } = start({});
    await lines.response('init');
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'release', arguments: ARGS } });
    const refused = await lines.response(4);
    expect(refused.error.code).to.equal(-32021);
    expect(refused.error.message).to.include('elicitation.form');
  });
});
