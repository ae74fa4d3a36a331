/**
 * subscriptions/listen on stdio: an open stream is long-lived, so it must not hold one of the
 * requests in flight that pause reading (a client whose streams paused its own input could not
 * even cancel them), and it ends when the client cancels it.
 */
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import { createMcpService } from '../../server/create-mcp-service.js';
import { silentLogger } from '../../server/engine/index.js';
import { serveStdio, type StdioConnection } from '../../server/stdio/index.js';
import { countingShipRelease } from '../helpers/counting-ship-release.js';
import { cancelled, JsonLines, request, sendLine } from '../helpers/json-lines.js';
import { TASK_CLIENT } from '../helpers/tasks.js';
import { testKeyRing } from '../helpers/test-server.js';

describe('subscriptions/listen on stdio', function () {
  this.timeout(20_000);
  let connection: StdioConnection;
  let close: () => Promise<void>;

  afterEach(async () => {
    await connection?.close();
    await close?.();
  });

  it('keeps reading while listen streams fill the requests in flight, and ends a stream on cancel', async () => {
    const service = createMcpService({
      tools: [countingShipRelease().tool],
      keyRing: testKeyRing(),
      logger: silentLogger,
    });
    close = service.close;
    const input = new PassThrough();
    const output = new PassThrough();
    const lines = new JsonLines(output);
    connection = serveStdio({ dispatcher: service.dispatcher, input, output, maxInFlight: 2 });
    const send = (message: unknown) => sendLine(input, message);
    const args = { service: 'api', version: '1' };
    send(request('call', 'tools/call', { name: 'ship-release', arguments: args }, { capabilities: TASK_CLIENT }));
    const { taskId } = (await lines.response('call')).result;
    for (const id of ['listen-1', 'listen-2']) {
      send(
        request(id, 'subscriptions/listen', { notifications: { taskIds: [taskId] } }, { capabilities: TASK_CLIENT }),
      );
      await lines.waitFor(
        (m) =>
          m.method === 'notifications/subscriptions/acknowledged' &&
          m.params._meta['io.modelcontextprotocol/subscriptionId'] === id,
      );
    }
    // Two requests in flight, the limit: reading would pause here if the streams counted.
    send(request('list', 'tools/list'));
    expect((await lines.response('list')).result.tools).to.have.length(1);
    send(cancelled('listen-1'));
    send(request('cancel', 'tasks/cancel', { taskId }, { capabilities: TASK_CLIENT }));
    expect((await lines.response('cancel')).result).to.not.have.property('error');
    // listen-2 follows the task to its end and answers; the cancelled listen-1 never does.
    expect((await lines.response('listen-2')).result.resultType).to.equal('complete');
    expect(lines.withId('listen-1')).to.deep.equal([]);
  });
});
