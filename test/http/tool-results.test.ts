/**
 * What a machine's output becomes on the wire: only CallToolResult fields pass, and a tool with an
 * outputSchema gets structured results that conform to it (spec, server/tools "Output Schema"),
 * whether the call answers it or a task's result carries it (one check, finalToolResult).
 */
import { expect } from 'chai';
import { assign, fromPromise, setup } from 'xstate';
import { defineTool, respondWith } from '../../server/engine/index.js';
import { callTool } from '../helpers/mcp-http.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';
import { resultOf, taskRpc, waitForTask } from '../helpers/tasks.js';

const tool = (name: string, output: () => unknown, outputSchema?: Record<string, unknown>) =>
  defineTool({
    name,
    description: `returns ${name}`,
    inputSchema: { type: 'object', properties: {} },
    ...(outputSchema ? { outputSchema } : {}),
    machine: respondWith(name, output),
  });

/** A task tool: its output comes from invoked work, so the call hands over to a task. */
const taskTool = (name: string, output: unknown, outputSchema: Record<string, unknown>) =>
  defineTool({
    name,
    description: `returns ${name} from a task`,
    inputSchema: { type: 'object', properties: {} },
    outputSchema,
    task: 'required',
    safeActors: ['produce'],
    machine: setup({
      types: {} as { context: { output: unknown } },
      actors: { produce: fromPromise(async () => output) },
    }).createMachine({
      id: name,
      initial: 'working',
      context: { output: null },
      output: ({ event }) => event.output,
      states: {
        working: {
          invoke: {
            src: 'produce',
            onDone: { target: 'done', actions: assign({ output: ({ event }) => event.output }) },
          },
        },
        done: { type: 'final', output: ({ context }) => context.output },
      },
    }),
  });

const listSchema = { type: 'object', properties: { items: { type: 'array', items: { type: 'string' } } } };

describe('tool results', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({
      tools: [
        tool('meddling', () => ({
          content: [{ type: 'text', text: 'hi' }],
          resultType: 'input_required',
          requestState: 'forged',
          isError: 'yes',
        })),
        tool('array-out', () => ['a', 'b'], { type: 'array', items: { type: 'string' } }),
        tool('number-out', () => 42, { type: 'integer' }),
        tool('conforming', () => ({ items: ['x'] }), listSchema),
        tool('nonconforming', () => ({ items: [1, 2] }), listSchema),
        tool('unstructured', () => 'just text', listSchema),
        tool('failing', () => ({ content: [{ type: 'text', text: 'it broke' }], isError: true }), listSchema),
        taskTool('conforming-task', { items: ['x'] }, listSchema),
        taskTool('nonconforming-task', { items: [1, 2] }, listSchema),
      ],
    });
  });
  after(() => server.close());

  const result = async (name: string) => {
    const response = await callTool(server.url, name, {});
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body.result;
  };

  it('takes only CallToolResult fields from a full result: a machine cannot set resultType', async () => {
    const r = await result('meddling');
    expect(r.resultType).to.equal('complete');
    expect(r).to.not.have.property('requestState');
    expect(r).to.not.have.property('isError');
    expect(r.content).to.deep.equal([{ type: 'text', text: 'hi' }]);
  });

  it('gives an array or a number as structuredContent when the tool declares an outputSchema', async () => {
    const list = await result('array-out');
    expect(list.structuredContent).to.deep.equal(['a', 'b']);
    expect(JSON.parse(list.content[0].text)).to.deep.equal(['a', 'b']);
    expect((await result('number-out')).structuredContent).to.equal(42);
  });

  it('passes a conforming result and turns a non-conforming one into a tool error', async () => {
    expect((await result('conforming')).structuredContent).to.deep.equal({ items: ['x'] });
    for (const name of ['nonconforming', 'unstructured']) {
      const r = await result(name);
      expect(r.isError, name).to.equal(true);
      expect(r.content[0].text, name).to.match(/does not match its outputSchema/);
      expect(r, name).to.not.have.property('structuredContent');
    }
  });

  it('does not hold a tool error to the outputSchema', async () => {
    const r = await result('failing');
    expect(r.isError).to.equal(true);
    expect(r.content[0].text).to.equal('it broke');
  });

  it("holds a task's result to the outputSchema the same way", async () => {
    const taskResult = async (name: string) => {
      const created = resultOf(await taskRpc(server.url, 'tools/call', { name, arguments: {} }));
      expect(created.resultType, name).to.equal('task');
      const task = await waitForTask(server.url, created.taskId, (seen) => seen.status === 'completed');
      expect(task.status, name).to.equal('completed');
      return task.result;
    };
    expect((await taskResult('conforming-task')).structuredContent).to.deep.equal({ items: ['x'] });
    const broken = await taskResult('nonconforming-task');
    expect(broken.isError).to.equal(true);
    expect(broken.content[0].text).to.match(
      /^Tool nonconforming-task produced a result that does not match its outputSchema/,
    );
    expect(broken).to.not.have.property('structuredContent');
  });
});
