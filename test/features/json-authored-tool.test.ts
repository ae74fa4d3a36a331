import { expect } from 'chai';
import { createMachine } from 'xstate';
import { defineTool, ToolRegistry } from '../../server/engine/index.js';
import { collectFeedbackMachine, collectFeedbackTool } from '../../machines/examples/collect-feedback.js';
import machineJson from '../../machines/examples/collect-feedback.machine.json' with { type: 'json' };
import { callTool } from '../helpers/mcp-http.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

const args = { subject: 'the billing 2.4.0 release' };
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

function result(response: { status: number; body: any }) {
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body.result;
}

describe('collect-feedback: a tool authored as a JSON machine config', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('is served, and asks the question written in the JSON', async () => {
    const r1 = result(await callTool(server.url, 'collect-feedback', args));
    expect(r1.resultType).to.equal('input_required');
    expect(r1.inputRequests.rating.params.message).to.equal('How did it go? Rate it from 1 (bad) to 5 (great).');
    expect(r1.inputRequests.rating.params.requestedSchema.properties.rating).to.include({ type: 'integer' });
  });

  it('asks what went wrong after a low rating (guard "unhappy"), then stores it (actor "saveFeedback")', async () => {
    const r1 = result(await callTool(server.url, 'collect-feedback', args));
    const r2 = result(
      await callTool(server.url, 'collect-feedback', args, {
        requestState: r1.requestState,
        inputResponses: { rating: accept({ rating: 1, comment: 'Late.' }) },
      }),
    );
    expect(Object.keys(r2.inputRequests)).to.deep.equal(['details']);
    const r3 = result(
      await callTool(server.url, 'collect-feedback', args, {
        requestState: r2.requestState,
        inputResponses: { details: accept({ whatWentWrong: 'No notice.', contactMe: true }) },
      }),
    );
    expect(r3.resultType).to.equal('complete');
    expect(r3.structuredContent).to.include({ subject: args.subject, rating: 1, followUp: true });
    expect(r3.structuredContent.ticketId).to.match(/^FB-[0-9a-f]{6}$/);
  });

  it('stores a good rating at once, and stores nothing when the user declines', async () => {
    const r1 = result(await callTool(server.url, 'collect-feedback', args));
    const good = result(
      await callTool(server.url, 'collect-feedback', args, {
        requestState: r1.requestState,
        inputResponses: { rating: accept({ rating: 5 }) },
      }),
    );
    expect(good.structuredContent).to.include({ rating: 5, followUp: false });
    const declined = result(
      await callTool(server.url, 'collect-feedback', args, {
        requestState: r1.requestState,
        inputResponses: { rating: { action: 'decline' } },
      }),
    );
    expect(declined.content[0].text).to.equal(
      'No feedback about the billing 2.4.0 release was given; nothing was stored.',
    );
  });

  it('is refused at start-up when the JSON names implementations the code lacks', () => {
    const bare = defineTool({ ...collectFeedbackTool, machine: createMachine(machineJson as any) });
    expect(() => new ToolRegistry([bare])).to.throw(/the guard "unhappy" has no implementation/);
    const partial = defineTool({
      ...collectFeedbackTool,
      machine: collectFeedbackMachine.provide({ actors: { saveFeedback: undefined as any } }),
    });
    expect(() => new ToolRegistry([partial])).to.throw(/the actor "saveFeedback" has no implementation/);
  });

  it('is refused when a JSON input state misses an answer handler', () => {
    const json = structuredClone(machineJson) as any;
    delete json.states.rate.on['answer.rating.cancel'];
    const missing = defineTool({
      ...collectFeedbackTool,
      machine: createMachine(json).provide(collectFeedbackMachine.implementations as any),
    });
    expect(() => new ToolRegistry([missing])).to.throw(/does not handle "answer\.rating\.cancel"/);
  });
});
