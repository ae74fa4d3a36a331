/**
 * Task quotas over HTTP. Before them, one anonymous client created tasks in a loop (143 a second,
 * each kept 24 h) and a 900 KB string argument cost 3.4 MiB of heap per task; now a caller past
 * its live tasks is refused with -31000 before anything is stored, other callers are not, long
 * strings need a `maxLength`, and a task whose record outgrows one task's size fails, saying why.
 */
import { expect } from 'chai';
import { assign, fromPromise, setup } from 'xstate';
import { askForm, defineTool, MemoryTaskStore, startsTask, type AnswerEvent } from '../../server/engine/index.js';
import { callToolFrom, postFrom } from '../helpers/from-address.js';
import { requestMeta } from '../helpers/mcp-http.js';
import { TASK_CLIENT, waitForTask } from '../helpers/tasks.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';
import { countingShipRelease } from '../helpers/counting-ship-release.js';

/** A task that fills its context with `kb` KiB of text, then asks a question (a settle point). */
const hoarder = defineTool({
  name: 'hoarder',
  description: 'Grows its state, then asks.',
  inputSchema: { type: 'object', properties: { kb: { type: 'integer' } }, required: ['kb'] },
  task: 'required',
  machine: setup({
    types: {} as { context: { kb: number; text: string }; input: { kb: number }; events: AnswerEvent },
    actors: { grow: fromPromise<string, { kb: number }>(async ({ input }) => 'x'.repeat(input.kb * 1024)) },
  }).createMachine({
    id: 'hoarder',
    initial: 'growing',
    context: ({ input }) => ({ kb: input.kb, text: '' }),
    states: {
      growing: {
        invoke: {
          src: 'grow',
          input: ({ context }) => ({ kb: context.kb }),
          onDone: { target: 'asking', actions: assign({ text: ({ event }) => event.output }) },
        },
      },
      asking: startsTask(
        askForm({
          key: 'ok',
          message: 'OK?',
          schema: { type: 'object', properties: { ok: { type: 'boolean' } } },
          onAccept: 'done',
          onDecline: 'done',
        }),
      ),
      done: { type: 'final' },
    },
  }),
});

/** A task that keeps its (long) argument and waits at a question: what the store holds is its arguments. */
const stash = defineTool({
  name: 'stash',
  description: 'Keeps a note, then asks.',
  inputSchema: { type: 'object', properties: { note: { type: 'string', maxLength: 8000 } }, required: ['note'] },
  task: 'required',
  machine: setup({ types: {} as { events: AnswerEvent } }).createMachine({
    id: 'stash',
    initial: 'asking',
    states: {
      asking: startsTask(
        askForm({
          key: 'ok',
          message: 'OK?',
          schema: { type: 'object', properties: { ok: { type: 'boolean' } } },
          onAccept: 'done',
          onDecline: 'done',
        }),
      ),
      done: { type: 'final' },
    },
  }),
});

function callTask(from: string, url: string, name: string, args: Record<string, unknown>) {
  return postFrom(from, url, {
    jsonrpc: '2.0',
    id: `${name}-${Math.random()}`,
    method: 'tools/call',
    params: { name, arguments: args, _meta: requestMeta(TASK_CLIENT) },
  });
}

describe('task quotas over HTTP', function () {
  this.timeout(30_000);
  let server: RunningServer;

  before(async () => {
    server = await startTestServer({
      tools: [countingShipRelease().tool, hoarder],
      docs: false,
      tasks: { quotas: { liveTasksPerClient: 4, recordBytes: 64 * 1024 } },
    });
  });
  after(async () => {
    await server.baton.close();
    await server.close();
  });

  it('refuses a caller past its live tasks with 429 and -31000, and serves another caller', async () => {
    const args = { service: 'api', version: '1', bakeSeconds: 3600 };
    for (let i = 0; i < 4; i++) {
      const created = await callTask('127.0.0.2', server.url, 'ship-release', args);
      expect(created.body.result.resultType, created.text).to.equal('task');
    }
    const refused = await callTask('127.0.0.2', server.url, 'ship-release', args);
    expect(refused.status).to.equal(429);
    expect(refused.headers.get('retry-after')).to.equal('1');
    expect(refused.body.error.code).to.equal(-31000);
    expect(refused.body.error.data).to.deep.equal({ reason: 'live_tasks', limit: 4 });
    const other = await callTask('127.0.0.3', server.url, 'ship-release', args);
    expect(other.body.result.resultType, other.text).to.equal('task');
  });

  it('refuses a string argument longer than 4096 characters when its schema sets no maxLength', async () => {
    const refused = await callToolFrom('127.0.0.4', server.url, 'ship-release', {
      service: 'x'.repeat(900_000),
      version: '1',
    });
    expect(refused.body.result.isError, refused.text.slice(0, 300)).to.equal(true);
    expect(refused.body.result.content[0].text).to.match(/arguments\.service is longer than 4096 characters/);
  });

  it('fails a task whose record outgrows the size of one task, naming the limit', async () => {
    const created = await callTask('127.0.0.5', server.url, 'hoarder', { kb: 100 });
    const taskId = created.body.result.taskId;
    const ended = await waitForTask(server.url, taskId, (t) => t.status === 'failed');
    expect(ended.status).to.equal('failed');
    expect(ended.error.code).to.equal(-31000);
    expect(ended.error.data.reason).to.equal('task_record_bytes');
    expect(ended.statusMessage).to.match(/over the limit of 65536 for one task/);
  });
});

describe('the in-memory task store shared fairly between callers', function () {
  this.timeout(60_000);
  const KIB = 1024;
  let server: RunningServer;

  before(async () => {
    // The defaults' ratios at a small scale: 256 MiB in all, 16 MiB per caller and 1 MiB per task
    // become 1 MiB, 64 KiB and 4 KiB. Before, 20 addresses at their share filled the store.
    server = await startTestServer({
      tools: [stash],
      docs: false,
      tasks: {
        quotas: { bytesPerClient: 64 * KIB, recordBytes: 4 * KIB },
        store: new MemoryTaskStore({ maxBytes: 1024 * KIB }),
      },
    });
  });
  after(async () => {
    await server.baton.close();
    await server.close();
  });

  it("leaves room for a newcomer's task after 20 addresses each started all the tasks they could", async () => {
    const note = 'n'.repeat(2000);
    const refusals = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        for (let n = 0; n < 100; n++) {
          const answer = await callTask(`127.0.1.${i + 1}`, server.url, 'stash', { note });
          if (answer.body.result?.resultType !== 'task') return answer;
        }
        return undefined;
      }),
    );
    for (const refused of refusals) {
      // Each address was refused as itself (429), never with the store full for everyone (503).
      expect(refused?.status, refused?.text).to.equal(429);
      expect(refused?.body.error.code).to.equal(-31000);
      expect(refused?.body.error.data.reason).to.equal('task_bytes');
    }
    const newcomer = await callTask('127.0.2.1', server.url, 'stash', { note });
    expect(newcomer.body.result?.resultType, newcomer.text).to.equal('task');
  });
});
