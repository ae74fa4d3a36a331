/**
 * A request id a stdio client sends reaches the log shortened (server/telemetry/request-id.ts),
 * as it reaches a span: the duplicate-id warning and the cancellation line each carry at most
 * MAX_REQUEST_ID_LENGTH characters of it and the mark.
 */
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import { fromPromise, setup } from 'xstate';
import { createMcpService } from '../../server/create-mcp-service.js';
import { defineTool } from '../../server/engine/index.js';
import { serveStdio } from '../../server/stdio/index.js';
import { MAX_REQUEST_ID_LENGTH, SHORTENED_MARK } from '../../server/telemetry/index.js';
import { cancelled, JsonLines, request, sendLine } from '../helpers/json-lines.js';
import { testKeyRing } from '../helpers/test-server.js';

/** Waits until the client cancels it. */
const waitsForCancel = defineTool({
  name: 'waits',
  description: 'Runs until cancelled.',
  inputSchema: { type: 'object' },
  machine: setup({
    actors: {
      wait: fromPromise<void>(
        ({ signal }) =>
          new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
      ),
    },
  }).createMachine({
    id: 'waits',
    initial: 'waiting',
    states: { waiting: { invoke: { src: 'wait', onDone: 'done' } }, done: { type: 'final' } },
  }),
});

describe('request ids in stdio log lines', () => {
  it('are shortened with a mark in the duplicate-id and cancellation lines', async () => {
    const lines: Array<{ event: string; fields: Record<string, unknown> }> = [];
    const log = (event: string, fields?: Record<string, unknown>) => lines.push({ event, fields: fields ?? {} });
    const { dispatcher } = createMcpService({
      tools: [waitsForCancel],
      keyRing: testKeyRing(),
      logger: { info: log, warn: log, error: log },
    });
    const input = new PassThrough();
    const output = new PassThrough();
    const answers = new JsonLines(output);
    const connection = serveStdio({ dispatcher, input, output, logger: { info: log, warn: log, error: log } });
    try {
      const id = `id-${'x'.repeat(20_000)}`;
      sendLine(input, request(id, 'tools/call', { name: 'waits', arguments: {} }));
      sendLine(input, request(id, 'tools/list'));
      await answers.waitFor((message) => message.error?.code === -32600);
      sendLine(input, cancelled(id));
      sendLine(input, request('after', 'tools/list'));
      await answers.response('after');
      const logged = lines.filter((line) => ['stdio_duplicate_id', 'stdio_request_cancelled'].includes(line.event));
      expect(logged.map((line) => line.event)).to.deep.equal(['stdio_duplicate_id', 'stdio_request_cancelled']);
      for (const line of logged) {
        expect(line.fields.id).to.equal(id.slice(0, MAX_REQUEST_ID_LENGTH) + SHORTENED_MARK);
      }
    } finally {
      input.end();
      await connection.close();
    }
  });
});
